import { defineJob } from '../jobs/define.js';
import { rk, userId } from '../jobs/fields.js';

/** After DELETE /activities: remove the activity's reactions, comments and the notifications about it (purge.ts). */
export const purgeJob = defineJob('purge', { schema: { author: userId, rk } });
