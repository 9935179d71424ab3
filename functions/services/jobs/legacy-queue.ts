/**
 * Jobs queued before the job lanes (the release of 2026-11-23 and earlier) wait on the queue that
 * was then the only one: the fan-out queue, which the lanes kept (same resource, same name), so a
 * deploy does not delete it with its messages. Its worker forwards each such job of another kind
 * to that kind's lane instead of refusing it (it would end in the DLQ): every job the older release
 * acknowledged still runs. A redelivered forward sends the job twice; every job is idempotent.
 * Planned removal: the release after 0.2.0 (CHANGELOG), when no pre-lanes job can be left.
 */
import { type LaneId, PRE_LANES_QUEUE } from '../../../lib/defs/lanes.js';
import { type Job, laneOfKind } from './jobs.js';

/** Whether `job`, received on `lane`'s queue, is a pre-lanes job to forward to its own lane. */
export const isPreLanesJob = (job: Job, lane: LaneId): boolean => lane === PRE_LANES_QUEUE && laneOfKind(job.kind) !== lane;
