import * as z from 'zod'; // not `{ z }`: see jobs/fields.ts
import { defineJob } from '../jobs/define.js';
import { cursor, userId } from '../jobs/fields.js';

const ticks = z
  .string()
  .regex(/^\d{1,20}$/)
  .optional();

/**
 * A reader read (or connected): raise the activity bound on one page of their follows to `until`
 * (absent with `off`: remove it), and where their copies stopped (`since`) write back what they
 * missed (stamp.ts). Followup lane: the reader is waiting for their feed. `tags`: the job has
 * passed their follows of authors and pages through their followed tags (`cursor` a tag key).
 */
export const stampJob = defineJob('stamp', {
  schema: { reader: userId, until: ticks, since: ticks, cursor, tags: z.literal(true).optional() },
});

/**
 * The same with nothing missing (no `since`: the reader's bound has not passed, or was never set,
 * so every fan-out still copies to them): only bounds to raise, which nobody waits on. Background
 * lane, sent with a delay spread over STAMP_SPREAD by reader (reader-activity/ask.ts), so a cohort
 * reading for the first time — the day activity-aware fan-out is deployed — writes its one item per
 * follow beside, not in front of, reads and fan-out. Should the bound pass before it runs, it
 * writes back what the reader missed as a stamp does (stamp.ts: `since` from the head).
 */
export const restampJob = defineJob('restamp', {
  schema: { reader: userId, until: ticks, cursor, tags: z.literal(true).optional() },
});
