/**
 * The lane workers' dispatcher: each job to its kind's runner (runners.ts). Every step is
 * idempotent (deterministic keys), every loop is bounded by a page, and a job that cannot finish
 * throws so its message comes back (and, after maxReceiveCount, lands in the DLQ).
 */
import type { Job } from './jobs.js';
import { runnerOfKind } from './runners.js';

export const runJob = (job: Job): Promise<void> => runnerOfKind(job.kind).run(job);
