import * as z from 'zod';
import { defineJob } from '../jobs/define.js';
import { userId } from '../jobs/fields.js';

/** Delete an unfollowed user's posts from the ex-follower's feed; `final`: the settle run (unfollow-cleanup.ts). */
export const cleanupJob = defineJob('cleanup', { schema: { follower: userId, followee: userId, final: z.boolean().optional() } });

/** Remove a muted followee's posts from the muter's feed; the follow stays (unfollow-cleanup.ts). */
export const muteCleanupJob = defineJob('muteCleanup', { schema: { follower: userId, followee: userId } });
