import { defineJob } from '../jobs/define.js';
import { cursor, rk, userId } from '../jobs/fields.js';

/**
 * Delete a post's copies (same rk) from one page of followers, then the next page — the author's own
 * copy on the first (retract-copies.ts). The original stays a hidden tombstone until its TTL, so late
 * backfills and cleanups still see that it was deleted.
 */
export const retractJob = defineJob('retract', { schema: { author: userId, rk, cursor } });
