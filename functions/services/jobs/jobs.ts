/**
 * Every job kind the bus carries, each declared once where its work is done (defineJob, define.ts).
 * From this list come the kinds, the union a job body must parse as, and each kind's lane; the code
 * that runs each kind is bound in runners.ts. Adding a kind: a defineJob beside its code, its entry
 * here, a JobRunner beside its code and its entry in runners.ts (which fails to compile without it).
 */
import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)
import { type JobKindId, jobRoutes, lanesOfRoute } from '../../../lib/defs/job-routes.js';
import { type LaneId, lanes, settleLaneOf } from '../../../lib/defs/lanes.js';
import { editJob } from '../edits/edit-job.js';
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
import { restampJob, stampJob } from '../reader-activity/stamp-job.js';
import { tagCleanupJob, tagEditJob, tagFanoutJob, tagRetractJob } from '../tags/tag-jobs.js';
import type { JobOf } from './define.js';
import { InvalidJobError } from './invalid-job.js';
import type { Same } from '../../model/same-type.js';

export const jobDefs = [
  fanoutJob,
  retractJob,
  backfillJob,
  cleanupJob,
  pullJob,
  unpullJob,
  notifyJob,
  purgeJob,
  muteCleanupJob,
  eraseJob,
  migrateJob,
  stampJob,
  restampJob,
  editJob,
  tagFanoutJob,
  tagRetractJob,
  tagCleanupJob,
  tagEditJob,
] as const;

type JobDefs = (typeof jobDefs)[number];
export type JobKind = JobDefs['kind'];
export type Job = JobOf<JobDefs>;

// Every routed kind has its definition here, and only those: a route without one fails to compile.
const everyRouteDefined: Same<JobKind, JobKindId> = true;
void everyRouteDefined;

const defOf = new Map<string, JobDefs>(jobDefs.map((def) => [def.kind, def]));
if (defOf.size !== jobDefs.length) throw new Error('two job definitions share a kind');

export const jobSchema = z.discriminatedUnion('kind', jobDefs.map((def) => def.schema) as unknown as [JobDefs['schema'], ...JobDefs['schema'][]]);

export function parseJob(body: string): Job {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (error) {
    throw new InvalidJobError(`job is not JSON: ${body.slice(0, 80)}`, { cause: error });
  }
  const parsed = jobSchema.safeParse(raw);
  if (!parsed.success) throw new InvalidJobError(`invalid job: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  return parsed.data;
}

/** The lane of each kind's jobs run at once. */
export const laneOfKind = (kind: JobKind): LaneId => defOf.get(kind)!.lane;

/**
 * The lanes a kind's jobs run on: its lane, its further pages' (a paged kind's tailLane), and its
 * lane's backlog, where jobs that waited too long are handed on (services/jobs/backlog.ts).
 */
export const lanesOfKind = (kind: JobKind): LaneId[] => lanesOfRoute(jobRoutes[kind]);

/** The kinds whose jobs run at once on `lane` (its queue also takes every settle re-run: laneOfJob). */
export const kindsOfLane = (lane: LaneId): JobKind[] => jobDefs.filter((def) => lanesOfKind(def.kind).includes(lane)).map((def) => def.kind);

/**
 * The lane a job goes to: its kind's, or for a paged job's further page (a `cursor`) its kind's
 * tailLane where it has one. A `late` job (fields.ts: handed on to its lane's backlog) stays in the
 * backlog, further pages and all, so the backlog never queues in front of a fresh post's pages. A
 * delayed job is a settle re-run (the second cleanup after an unfollow or mute, the erase's
 * settle), routed by settleLaneOf.
 */
export function laneOfJob(job: Pick<Job, 'kind'> & { cursor?: string; late?: true }, delaySeconds = 0): LaneId {
  if (delaySeconds > 0 && settleLaneOf(laneOfKind(job.kind)) === 'maintenance') return 'maintenance';
  const def: { lane: LaneId; tailLane?: LaneId } = defOf.get(job.kind)!;
  const backlog = lanes[def.lane].backlog;
  if (job.late && backlog) return backlog;
  return job.cursor !== undefined && def.tailLane ? def.tailLane : def.lane;
}

/**
 * The job, if `lane` may run it: one of its kind's lanes, or maintenance (which also runs every
 * settle re-run). A further page on its kind's first lane is run too (queued there by a release
 * before the tail lane). Anything else was sent or redriven to the wrong queue: refused, so it ends
 * in the DLQ.
 */
export function assertLane(job: Job, lane: LaneId): Job {
  if (!lanesOfKind(job.kind).includes(lane) && lane !== 'maintenance') {
    throw new InvalidJobError(`a ${job.kind} job belongs to the ${laneOfKind(job.kind)} lane, not ${lane}`);
  }
  return job;
}
