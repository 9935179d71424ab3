/**
 * Each job kind's route, declared once: the lane it runs on, its further pages' lane, and which
 * functions send it. The job registry takes each kind's lanes from here
 * (functions/services/jobs/define.ts defineJob), and each function's `sendsTo` is derived from it
 * (functions.ts queuesSentToBy): nothing lists a function's queues by hand.
 */
import type { FunctionId } from './function-ids.js';
import { type LaneId, lanes } from './lanes.js';

export interface JobRoute {
  /** The lane its jobs run on when sent at once. */
  readonly lane: LaneId;
  /** The lane of a paged job's further pages (a job with a `cursor`), where it is not `lane`. */
  readonly tailLane?: LaneId;
  /**
   * Functions that send it, besides the workers of its own lanes (which send its next page or
   * phase). A function in `settledBy` also sends it delayed, as a settle re-run (jobs.ts laneOfJob:
   * to maintenance, unless its lane takes its own delayed jobs).
   */
  readonly sentBy: readonly FunctionId[];
  readonly settledBy?: readonly FunctionId[];
  /** A kind added after the lanes: never on the pre-lanes queue, so never forwarded from it. */
  readonly sinceLanes?: true;
}

/** Who reads a home feed and so may ask for the reader's stamp (reader-activity/ask.ts). */
const READERS = ['feedRead', 'rankedFeeds', 'realtimeSocket'] as const satisfies readonly FunctionId[];

export const jobRoutes = {
  // The feed table's stream (handlers/outbox.ts, services/jobs/outbox-jobs.ts): posts, edits, deletes, reactions.
  fanout: { lane: 'fanout', tailLane: 'fanoutTail', sentBy: ['outbox'] },
  edit: { lane: 'fanout', tailLane: 'fanoutTail', sentBy: ['outbox'] },
  tagFanout: { lane: 'fanout', tailLane: 'fanoutTail', sentBy: ['outbox'] },
  tagEdit: { lane: 'fanout', tailLane: 'fanoutTail', sentBy: ['outbox'] },
  retract: { lane: 'followup', sentBy: ['outbox'] },
  tagRetract: { lane: 'followup', sentBy: ['outbox'] },
  purge: { lane: 'maintenance', sentBy: ['outbox'] },
  // Notices: the stream's (posts, mentions, reactions), a follow's, an edit's first page's (edits/notices.ts).
  notify: { lane: 'notify', sentBy: ['outbox', 'graph', 'fanoutWorker', 'fanoutBacklogWorker'] },
  // Follows, unfollows, mutes and blocks (follow-graph.ts, mutes-blocks.ts, bulk/follows.ts). A settle re-run of a
  // cleanup runs on maintenance and, when the edge wants posts again, owes the backfill (unfollow-cleanup.ts). An unmute's
  // or unblock's backfill (with tags) runs again CONTROL_SETTLE later (mutes-blocks.ts restore).
  backfill: { lane: 'followup', sentBy: ['graph', 'controls', 'batchImport', 'maintenanceWorker'], settledBy: ['controls'] },
  cleanup: { lane: 'followup', sentBy: ['graph', 'batchImport'], settledBy: ['graph', 'batchImport'] },
  muteCleanup: { lane: 'followup', sentBy: ['controls', 'batchImport'], settledBy: ['controls', 'batchImport'] },
  tagCleanup: { lane: 'followup', sentBy: ['graph'], settledBy: ['graph'] },
  // A followee crossing FANOUT_PULL_THRESHOLD (follow-graph.ts checkThreshold).
  pull: { lane: 'maintenance', sentBy: ['graph', 'controls', 'batchImport'] },
  unpull: { lane: 'maintenance', sentBy: ['graph', 'controls', 'batchImport'] },
  stamp: { lane: 'followup', sentBy: READERS },
  restamp: { lane: 'background', sentBy: READERS, sinceLanes: true },
  erase: { lane: 'maintenance', sentBy: ['account'] },
  migrate: { lane: 'maintenance', sentBy: ['migrationStart'] },
} as const satisfies Record<string, JobRoute>;

export type JobKindId = keyof typeof jobRoutes;

/**
 * The lanes a route's jobs run on: its lane, its further pages' lane, and its lane's backlog, where
 * jobs that waited too long are handed on (functions/services/jobs/backlog.ts).
 */
export const lanesOfRoute = (route: JobRoute): LaneId[] => {
  const backlog = lanes[route.lane].backlog;
  return [route.lane, ...(route.tailLane ? [route.tailLane] : []), ...(backlog ? [backlog] : [])];
};
