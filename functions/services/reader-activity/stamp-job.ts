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
  lane: 'followup',
  schema: { reader: userId, until: ticks, since: ticks, cursor, tags: z.literal(true).optional() },
});
