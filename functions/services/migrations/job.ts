/**
 * A data-model migration in AWS: the deploy's trigger (handlers/migration-start.ts) queues one
 * `migrate` job per Scan segment on the maintenance lane. Each job runs its segment for a slice of
 * the worker's timeout, then queues itself again from its checkpoint; the job that finds every
 * segment done moves the version item and queues the next step's jobs, if any. A job that fails
 * comes back (and after maxReceiveCount lands in the maintenance DLQ); its failure is a metric with
 * an alarm. Progress: the MigrationItems metric, and the checkpoints (`npm run migrate -- --status`).
 */
import { lanes } from '../../../lib/defs/lanes.js';
import { DATA_MODEL_VERSION } from '../../model/data-model.js';
import { recordMigrationFailure, recordMigrationProgress } from '../../platform/metrics.js';
import { writeDataModelVersion } from '../../stores/migration-store.js';
import { enqueueJob, enqueueJobs } from '../jobs/bus.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import type { Job } from '../jobs/jobs.js';
import { migrateJob } from './migrate-job.js';
import { runStep, stepsFrom, storedVersion } from './runner.js';
import { MIGRATION_STEPS } from './steps.js';

/** Scan segments of a deployed migration: the maintenance lane's concurrency × batch, so all run at once. */
export const MIGRATION_SEGMENTS = lanes.maintenance.maxConcurrency * lanes.maintenance.batchSize;
/** How long one job scans before handing on: two thirds of the worker's timeout, the rest for the last page. */
export const MIGRATION_SLICE_MS = (lanes.maintenance.timeoutSeconds * 1000 * 2) / 3;

export type MigrateJob = JobOf<typeof migrateJob>;

const jobsOf = (to: number): MigrateJob[] =>
  Array.from({ length: MIGRATION_SEGMENTS }, (_, segment) => ({ kind: 'migrate', to, segment, totalSegments: MIGRATION_SEGMENTS }));

/** Queues every one of `jobs`, or throws (the deploy fails, or the job's message comes back). */
async function enqueueAll(jobs: readonly Job[], what: string): Promise<void> {
  const failed = await enqueueJobs(jobs);
  if (failed.length) throw new Error(`could not queue ${failed.length} of ${jobs.length} ${what}`);
}

/** Queues a migration's repair jobs (MigrationStep.jobsAfter), or throws: the page comes back. */
export const queueRepairs = (jobs: readonly Job[]): Promise<void> => enqueueAll(jobs, 'repair jobs');

/** At deploy: queues the first pending step's jobs. Returns the version found and whether it queued. */
export async function startMigration(): Promise<{ version: number; queued: number }> {
  const version = await storedVersion();
  if (version >= DATA_MODEL_VERSION) return { version, queued: 0 };
  const jobs = jobsOf(stepsFrom(version)[0]!.to);
  await enqueueAll(jobs, 'migration jobs');
  return { version, queued: jobs.length };
}

/** One slice of one segment (`clock`: ms, for tests). */
export async function runMigrationJob(job: MigrateJob, clock: () => number = Date.now): Promise<void> {
  const step = MIGRATION_STEPS.find((s) => s.to === job.to);
  if (!step) throw new Error(`this release has no migration to data model v${job.to}`);
  const started = clock();
  try {
    const { done, checkpoints } = await runStep(step, {
      totalSegments: job.totalSegments,
      segments: [job.segment],
      shouldStop: () => clock() - started > MIGRATION_SLICE_MS,
      onPage: (p) => recordMigrationProgress(p.pageItems, p.done),
      enqueue: queueRepairs,
    });
    if (!checkpoints.find((c) => c.segment === job.segment)?.done) return enqueueJob(job); // the rest, next slice
    if (!done) return; // another segment's job finishes the step
    await writeDataModelVersion(step.to);
    const next = MIGRATION_STEPS.find((s) => s.from === step.to);
    if (next) await enqueueAll(jobsOf(next.to), `jobs of the v${next.to} migration`);
  } catch (error) {
    recordMigrationFailure();
    throw error;
  }
}

export const migrateRunner: JobRunner<typeof migrateJob> = { def: migrateJob, run: (job) => runMigrationJob(job) };
