/**
 * Every job kind the bus carries, each declared once where its work is done (defineJob, define.ts).
 * From this list come the kinds, the union a job body must parse as, and each kind's lane; the code
 * that runs each kind is bound in runners.ts. Adding a kind: a defineJob beside its code, its entry
 * here, a JobRunner beside its code and its entry in runners.ts (which fails to compile without it).
 */
import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)
import type { LaneId } from '../../../lib/defs/lanes.js';
import { eraseJob } from '../erase/erase-job.js';
import { fanoutJob } from '../fanout/fanout-job.js';
import { backfillJob } from '../follow-copies/backfill-job.js';
import { cleanupJob, muteCleanupJob } from '../follow-copies/cleanup-jobs.js';
import { purgeJob } from '../deleted-posts/purge-job.js';
import { retractJob } from '../deleted-posts/retract-job.js';
import { migrateJob } from '../migrations/migrate-job.js';
import { notifyJob } from '../notifications/notify-job.js';
import { pullJob } from '../pulled-authors/pull-job.js';
import { unpullJob } from '../pulled-authors/unpull-job.js';
import { tagCleanupJob, tagFanoutJob, tagRetractJob } from '../tags/tag-jobs.js';
import type { JobOf } from './define.js';
import { InvalidJobError } from './errors.js';

export const jobDefs = [fanoutJob, retractJob, backfillJob, cleanupJob, pullJob, unpullJob, notifyJob, purgeJob, muteCleanupJob, eraseJob, migrateJob, tagFanoutJob, tagRetractJob, tagCleanupJob] as const;

type JobDefs = (typeof jobDefs)[number];
export type JobKind = JobDefs['kind'];
export type Job = JobOf<JobDefs>;

const defOf = new Map<string, JobDefs>(jobDefs.map((def) => [def.kind, def]));
if (defOf.size !== jobDefs.length) throw new Error('two job definitions share a kind');

export const jobSchema = z.discriminatedUnion(
  'kind',
  jobDefs.map((def) => def.schema) as unknown as [JobDefs['schema'], ...JobDefs['schema'][]],
);

export function parseJob(body: string): Job {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (error) {
    throw new InvalidJobError(`job is not JSON: ${body.slice(0, 80)}`, { cause: error });
  }
  const parsed = jobSchema.safeParse(raw);
  if (!parsed.success) throw new InvalidJobError(`invalid job: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  return parsed.data as Job;
}

/** The lane of each kind's jobs run at once. */
export const laneOfKind = (kind: JobKind): LaneId => defOf.get(kind)!.lane;

/** The kinds whose jobs run at once on `lane` (its queue also takes every settle re-run: laneOfJob). */
export const kindsOfLane = (lane: LaneId): JobKind[] => jobDefs.filter((def) => def.lane === lane).map((def) => def.kind);

/**
 * The lane a job goes to. A delayed job is a settle re-run (the second cleanup after an
 * unfollow or mute, the erase's settle): nobody waits on it, so it is maintenance.
 */
export function laneOfJob(kind: JobKind, delaySeconds = 0): LaneId {
  return delaySeconds > 0 ? 'maintenance' : laneOfKind(kind);
}

/**
 * The job, if `lane` may run it: its kind's lane, or maintenance (which also runs every settle
 * re-run). Anything else was sent or redriven to the wrong queue: refused, so it ends in the DLQ.
 */
export function assertLane(job: Job, lane: LaneId): Job {
  if (laneOfKind(job.kind) !== lane && lane !== 'maintenance') {
    throw new InvalidJobError(`a ${job.kind} job belongs to the ${laneOfKind(job.kind)} lane, not ${lane}`);
  }
  return job;
}
