import * as z from 'zod';
import { ERASE_PHASES } from '../../model/erasure.js';
import { defineJob } from '../jobs/define.js';
import { userId } from '../jobs/fields.js';

/** One bounded step of erasing a user (DELETE /me), then the next (erase.ts). */
export const eraseJob = defineJob('erase', { schema: { user: userId, phase: z.enum(ERASE_PHASES) } });
