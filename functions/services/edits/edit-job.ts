import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)
import { defineJob } from '../jobs/define.js';
import { cursor, late, rk, userId } from '../jobs/fields.js';

/**
 * Bring one page of an author's followers' copies of an edited post to `version` (copies.ts), then
 * the next page. Sent by the outbox for the original's MODIFY: on the fan-out lane, since an edit
 * walks the same followers a post did and its readers wait as long.
 */
export const editJob = defineJob('edit', { schema: { author: userId, rk, version: z.number().int().min(2), cursor, late } });
