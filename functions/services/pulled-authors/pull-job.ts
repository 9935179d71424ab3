import { defineJob } from '../jobs/define.js';
import { cursor, userId } from '../jobs/fields.js';

/** The author crossed the threshold up: mark them pulled, add them to one page of followers' pulled sets (pull.ts). */
export const pullJob = defineJob('pull', { schema: { author: userId, cursor } });
