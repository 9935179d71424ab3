import * as z from 'zod';
import { defineJob } from '../jobs/define.js';
import { userId } from '../jobs/fields.js';

/**
 * Copy a followee's recent posts into a new follower's feed (backfill.ts); with `tags` (a lifted
 * mute or block), also the followee's posts the follower's push tag follows bring, followed or not.
 */
export const backfillJob = defineJob('backfill', { schema: { follower: userId, followee: userId, tags: z.literal(true).optional() } });
