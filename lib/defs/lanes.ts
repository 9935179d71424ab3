/**
 * Job lanes: the background work split by the latency it owes its user. Each lane is one SQS queue
 * with its own dead-letter queue, its own consumer function (a separate Lambda pool, bounded by the
 * mapping's MaximumConcurrency) and an alarm on the age of its oldest message, so a burst in one
 * lane (10,000 follows' backfills, a celebrity's erase) never delays another lane's jobs.
 *
 *   fanout       copies of a new post into its followers' feeds: every   seconds
 *                post's first page of followers
 *   fanoutTail   the rest of a large fan-out (its further pages), so a   seconds to minutes
 *                burst of big fan-outs never queues in front of the next
 *                post's first page (readers first: docs/lanes.md)
 *   fanoutBacklog  fanout jobs that waited in fanout's queue past        minutes
 *                FANOUT_BACKLOG_AFTER: a standing backlog drains here,
 *                while fresh posts (and their further pages) go ahead
 *   followup     what a user waits for after their own action (a follow,  seconds to a minute
 *                a delete, an unfollow / mute / block)
 *   notify       notification groups                                      a minute
 *   maintenance  what nobody waits on: erasing, purging, settle re-runs,  minutes
 *                data-model migrations after a deploy
 *   background   bookkeeping that yields to everything else: a reader's  within the hour
 *                activity bound, raised with nothing missing (restamp),
 *                spread over STAMP_SPREAD, so a cohort's first reads
 *                never swamp the stack
 *
 * Read by the CDK stack (queues, mappings, alarms), the local runtime (the same queues and pollers)
 * and the job bus. Which job kinds run on which lane is no business of theirs: each kind names its
 * lane where it is declared (functions/services/jobs/define.ts defineJob; the list: jobs.ts).
 */

export type LaneId = 'fanout' | 'fanoutTail' | 'fanoutBacklog' | 'followup' | 'notify' | 'maintenance' | 'background';

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
  /**
   * Where a job that waited in this queue longer than FANOUT_BACKLOG_AFTER goes instead of running
   * (services/jobs/backlog.ts): fresh posts first while the lane is behind.
   */
  readonly backlog?: LaneId;
  /** Its kinds' delayed jobs stay on it (elsewhere a delayed job is a settle re-run: maintenance). */
  readonly takesDelayed?: true;
}

export const lanes: Record<LaneId, LaneDef> = {
  fanout: {
    id: 'fanout',
    promise: 'a new post reaches its followers within seconds',
    // 10, SQS's most per receive: under a standing queue most of a batch is handed on unrun, in one
    // send (services/jobs/backlog.ts), so a bigger batch sifts a rush of stale jobs 2.5× as fast and
    // the fresh post behind it runs sooner; fresh pages of one batch run together (their reads shared).
    batchSize: 10,
    batchingWindowSeconds: 0,
    maxConcurrency: 10,
    oldestAgeAlarmSeconds: 30,
    timeoutSeconds: 30,
    backlog: 'fanoutBacklog',
  },
  // Its own pool: a celebrity's 200 pages take these instances, never the first pages' ones.
  fanoutTail: {
    id: 'fanoutTail',
    promise: 'every follower of a large author has the post within minutes',
    batchSize: 4,
    batchingWindowSeconds: 0,
    maxConcurrency: 5,
    oldestAgeAlarmSeconds: 300,
    timeoutSeconds: 30,
  },
  // A standing backlog of fan-outs drains here, as many at once as fanout (it does most of the
  // draining then), apart from the fresh posts' pages: services/jobs/backlog.ts.
  fanoutBacklog: {
    id: 'fanoutBacklog',
    promise: 'every post of a burst reaches its followers within minutes',
    batchSize: 4,
    batchingWindowSeconds: 0,
    maxConcurrency: 10,
    oldestAgeAlarmSeconds: 900,
    timeoutSeconds: 30,
  },
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
  // One at a time, small batches: its jobs write one item per follow, and nobody waits on them.
  background: {
    id: 'background',
    promise: 'a reader’s activity bound is raised within the hour',
    batchSize: 2,
    batchingWindowSeconds: 0,
    maxConcurrency: 2,
    oldestAgeAlarmSeconds: 3600,
    timeoutSeconds: 60,
    takesDelayed: true,
  },
};

export const laneList: readonly LaneDef[] = Object.values(lanes);

/**
 * Where a settle re-run (a job sent with a delay) of a kind on `lane` goes: nobody waits on it, so
 * maintenance — unless the lane takes its own delayed jobs (background: a restamp spread over
 * STAMP_SPREAD). The job router and each function's queue grants both read it from here.
 */
export const settleLaneOf = (lane: LaneId): LaneId => (lanes[lane].takesDelayed ? lane : 'maintenance');

/**
 * The lane whose queue held every kind of job before the lanes (the release of 2026-11-23 and
 * earlier): its worker forwards such jobs to their lanes (functions/services/jobs/legacy-queue.ts).
 */
export const PRE_LANES_QUEUE: LaneId = 'fanout';

/** Queue ids of a lane: its jobs and its dead letters. */
export const laneQueue = (lane: LaneId) => lane;
export const laneDlq = (lane: LaneId) => `${lane}Dlq` as const;
/** The lane's consumer function and event-source ids. */
export const laneWorker = (lane: LaneId) => `${lane}Worker` as const;
export const laneSource = (lane: LaneId) => `${lane}Jobs` as const;
