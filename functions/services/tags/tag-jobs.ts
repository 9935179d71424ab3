/**
 * The job kinds of hashtags (their runners: tag-fanout.ts, tag-retract.ts, tag-cleanup.ts and edit-copies.ts here). Declared apart
 * from the runners: the outbox sends the first two and must not bundle what runs them.
 */
import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)
import { defineJob } from '../jobs/define.js';
import { cursor, late, rk, tagKey, userId } from '../jobs/fields.js';
import { image } from '../fanout/fanout-job.js';

/**
 * A tagged post into its tag: on the first page the tag-feed entry and the trend count, on every
 * page the copies for one page of the tag's push followers (the next page's job enqueued first).
 * Further pages run on fanoutTail, as a post's do: a hot tag's pages never queue in front of the
 * next post's first page.
 */
export const tagFanoutJob = defineJob('tagFanout', { schema: { author: userId, rk, tag: tagKey, image, cursor, late } });

/**
 * An edited post's copies in one page of a tag's push followers' home feeds, brought to `version`
 * (edit-copies.ts): sent for each tag the edit kept (a tag it joined gets a tagFanout, which writes
 * the current version; a tag it left, a tagRetract). The fan-out lanes, as the author's edit job.
 */
export const tagEditJob = defineJob('tagEdit', {
  schema: { author: userId, rk, tag: tagKey, version: z.number().int().min(2), cursor, late },
});

/**
 * A deleted tagged post out of its tag: the entry, and the copies of one page of push followers at
 * a time. `keptTags` (an edit that removed the tag, retag-jobs.ts): the post lives on with these tags, so
 * followers who get it by another road (its author, one of these) keep their copy.
 */
export const tagRetractJob = defineJob('tagRetract', {
  schema: { author: userId, rk, tag: tagKey, cursor, keptTags: z.array(tagKey).max(10).optional() },
});

/** After a tag unfollow: the copies only that tag brought leave the ex-follower's feed (sent twice: at once and after the settle). */
export const tagCleanupJob = defineJob('tagCleanup', { schema: { user: userId, tag: tagKey, followedAt: z.string().regex(/^\d{1,20}$/) } });
