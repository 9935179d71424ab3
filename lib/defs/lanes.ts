/**
 * Job lanes: the background work split by the latency it owes its user. Each lane is one SQS queue
 * with its own dead-letter queue, its own consumer function (a separate Lambda pool, bounded by the
 * mapping's MaximumConcurrency) and an alarm on the age of its oldest message, so a burst in one
 * lane (10,000 follows' backfills, a celebrity's erase) never delays another lane's jobs.
 *
 *   fanout       copies of a new post into its followers' feeds          seconds
 *   followup     what a user waits for after their own action: backfill   seconds to a minute
 *                after a follow, retract after a delete, cleanup after
 *                an unfollow / mute / block
 *   notify       notification groups                                      a minute
 *   maintenance  erase, purge, pull/unpull, settle re-runs, data-model     minutes
 *                migrations after a deploy
 *
 * Read by the CDK stack (queues, mappings, alarms), the local runtime (the same queues and pollers)
 * and the job bus (functions/services/jobs/bus.ts), which routes each job by `laneOfJob`.
 */

export type LaneId = 'fanout' | 'followup' | 'notify' | 'maintenance';

/** Every job kind the bus carries (the schema is functions/services/jobs/jobs.ts). */
export type JobKind = 'fanout' | 'retract' | 'backfill' | 'cleanup' | 'pull' | 'unpull' | 'notify' | 'purge' | 'muteCleanup' | 'erase' | 'migrate';

export interface LaneDef {
  readonly id: LaneId;
  /** What its user expects, for docs and alarm descriptions. */
  readonly promise: string;
  /** Messages per invocation: small where one job is heavy, so jobs don't share a timeout they can't fit. */
  readonly batchSize: number;
  /** Lambda's MaximumBatchingWindow (needed for batches over 10): waits to gather a bigger batch. */
  readonly batchingWindowSeconds: number;
  /** Default Lambda MaximumConcurrency of the lane's mapping (cdk.json context `<lane>MaxConcurrency`). */
  readonly maxConcurrency: number;
  /** Alarm when the oldest queued message is older than this (seconds). */
  readonly oldestAgeAlarmSeconds: number;
  /** The consumer's timeout; the queue's visibility timeout is 6× this (AWS guidance). */
  readonly timeoutSeconds: number;
}

export const lanes: Record<LaneId, LaneDef> = {
  fanout: { id: 'fanout', promise: 'a new post reaches its followers within seconds', batchSize: 4, batchingWindowSeconds: 0, maxConcurrency: 10, oldestAgeAlarmSeconds: 30, timeoutSeconds: 30 },
  followup: {
    id: 'followup',
    promise: 'a follow shows the followee’s posts, a delete or unfollow takes them away, within seconds',
    batchSize: 10,
    batchingWindowSeconds: 0,
    maxConcurrency: 5,
    oldestAgeAlarmSeconds: 60,
    timeoutSeconds: 30,
  },
  // Big batches, gathered for up to a second: a recipient's notify jobs in one batch fold into one
  // apply per 20 events (handlers/lane-worker.ts), so a follow burst is not a transaction per follow.
  notify: {
    id: 'notify',
    promise: 'a notification appears within a minute',
    batchSize: 100,
    batchingWindowSeconds: 1,
    maxConcurrency: 5,
    oldestAgeAlarmSeconds: 120,
    timeoutSeconds: 60,
  },
  maintenance: {
    id: 'maintenance',
    promise: 'an erase, purge or pull/unpull finishes within minutes',
    batchSize: 2,
    batchingWindowSeconds: 0,
    maxConcurrency: 2,
    oldestAgeAlarmSeconds: 900,
    timeoutSeconds: 60,
  },
};

export const laneList: readonly LaneDef[] = Object.values(lanes);

/** The lane of each job kind run at once (a delayed run is a settle re-run: see laneOfJob). */
export const jobLanes: Record<JobKind, LaneId> = {
  fanout: 'fanout',
  backfill: 'followup',
  retract: 'followup',
  cleanup: 'followup',
  muteCleanup: 'followup',
  notify: 'notify',
  erase: 'maintenance',
  purge: 'maintenance',
  pull: 'maintenance',
  unpull: 'maintenance',
  migrate: 'maintenance',
};

/**
 * The lane a job goes to. A delayed job is a settle re-run (the second cleanup after an
 * unfollow or mute, the erase's settle): nobody waits on it, so it is maintenance.
 */
export function laneOfJob(kind: JobKind, delaySeconds = 0): LaneId {
  return delaySeconds > 0 ? 'maintenance' : jobLanes[kind];
}

/** Queue ids of a lane: its jobs and its dead letters. */
export const laneQueue = (lane: LaneId) => lane;
export const laneDlq = (lane: LaneId) => `${lane}Dlq` as const;
/** The lane's consumer function and event-source ids. */
export const laneWorker = (lane: LaneId) => `${lane}Worker` as const;
export const laneSource = (lane: LaneId) => `${lane}Jobs` as const;
