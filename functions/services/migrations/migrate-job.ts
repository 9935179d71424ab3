import * as z from 'zod';
import { defineJob } from '../jobs/define.js';

/** One slice of one Scan segment of a data-model migration, then the next (job.ts). */
export const migrateJob = defineJob('migrate', {
  schema: { to: z.number().int().min(2).max(1000), segment: z.number().int().min(0), totalSegments: z.number().int().min(1).max(1000) },
});
