/**
 * How a job kind is declared: `defineJob` says what the job is — its kind, its lane and the shape of
 * its body — in the folder of the code that does it; a `JobRunner` binds that code to it, beside the
 * code. The two are apart because senders need the first without the second: the outbox Lambda
 * routes fanout, notify, retract and purge jobs but has no table, and its bundle must not carry
 * the runners' stores and clients (test/infra/bundle-contents.test.ts).
 *
 * Every list and type about jobs derives from these: the kinds, the union a message must parse as, the
 * lane of each kind (jobs.ts, from the list of definitions), and the dispatcher (runners.ts, from
 * the list of runners, which must cover every kind).
 */
import * as z from 'zod';
import { type JobKindId, type JobRoute, jobRoutes } from '../../../lib/defs/job-routes.js';
import type { LaneId } from '../../../lib/defs/lanes.js';

/** The body of a job of kind K: `kind` first, then the fields (the order its JSON has always had). */
export type JobSchema<K extends string, F extends z.ZodRawShape> = z.ZodObject<{ kind: z.ZodLiteral<K> } & F>;

export interface JobDef<K extends string = string, F extends z.ZodRawShape = z.ZodRawShape> {
  readonly kind: K;
  /** The lane its jobs run on when sent at once (a delayed job is a settle re-run: jobs.ts laneOfJob). */
  readonly lane: LaneId;
  /** The lane of a paged job's further pages (a job with a `cursor`), where it is not `lane`. */
  readonly tailLane?: LaneId;
  readonly schema: JobSchema<K, F>;
}

/** A job of the given definition, as parsed from its message. */
export type JobOf<D extends JobDef> = z.infer<D['schema']>;

/**
 * Declares a job kind's body, e.g.
 *   export const backfillJob = defineJob('backfill', { schema: { follower: userId, followee: userId } });
 * Its lanes come from its route (lib/defs/job-routes.ts), where who sends it is declared too.
 */
export function defineJob<const K extends JobKindId, F extends z.ZodRawShape>(kind: K, spec: { schema: F }): JobDef<K, F> {
  const route: JobRoute = jobRoutes[kind];
  return { kind, lane: route.lane, ...(route.tailLane ? { tailLane: route.tailLane } : {}), schema: z.object({ kind: z.literal(kind), ...spec.schema }) };
}

/**
 * The code that does a job kind, bound to its definition beside that code (the dispatcher:
 * runners.ts), e.g.
 *   export const backfillRunner: JobRunner<typeof backfillJob> = { def: backfillJob, run: (job) => backfill(job.follower, job.followee) };
 * A plain object, not a call: a function that only calls into the runner's module (the account's
 * erase request, the deploy's migration start) then bundles none of the runner it does not use.
 */
export interface JobRunner<D extends JobDef = JobDef> {
  readonly def: D;
  /** Runs one job; throws so its message comes back (and, after maxReceiveCount, lands in the DLQ). */
  run(job: JobOf<D>): Promise<void>;
  /**
   * Runs the jobs of this kind in one batch of its own lane together, where they share reads and
   * writes; `redelivered[i]`: job i's message came before. Returns one promise per job, settled
   * when that job is done, so each message is reported on its own.
   */
  runBatch?(jobs: readonly JobOf<D>[], redelivered: readonly boolean[]): Promise<void>[];
}
