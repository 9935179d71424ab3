import { defineJob } from '../jobs/define.js';
import { userId } from '../jobs/fields.js';

/** Copy a followee's recent posts into a new follower's feed (backfill.ts). */
export const backfillJob = defineJob('backfill', { schema: { follower: userId, followee: userId } });
