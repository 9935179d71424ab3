/** Field schemas that several job kinds' bodies share (define.ts). */
import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)
import { isNormalTag } from '../../model/tags.js';
import { isValidUserId } from '../../model/user-id.js';

export const userId = z.string().refine(isValidUserId, 'invalid user id');
/** A follower-page cursor: absent on a paged job's first page. */
export const cursor = z.string().min(1).optional();
/**
 * Set on a paged job handed on to its lane's backlog (backlog.ts): its further pages follow it there
 * (jobs.ts laneOfJob), so the tail lane keeps to the further pages of fresh posts.
 */
export const late = z.literal(true).optional();
/** A range key as a decimal string: exact for 31-digit keys. */
export const rk = z.string().regex(/^\d{1,38}$/);
/** A tag key (model/tags.ts: NFKC, lower case). */
export const tagKey = z.string().refine(isNormalTag, 'invalid tag key'); // a TagKey: isNormalTag narrows
