import { defineJob } from '../jobs/define.js';
import { cursor, userId } from '../jobs/fields.js';

/** The author fell below it: copy their recent posts to one page of followers, drop the pulled sets (unpull.ts). */
export const unpullJob = defineJob('unpull', { schema: { author: userId, cursor } });
