/**
 * The job bus: every background job goes through here to its kind's lane's queue (jobs.ts laneOfJob;
 * the lanes: lib/defs/lanes.ts), so a burst of one kind of work never queues in front of another's.
 */
import type { LaneId } from '../../../lib/defs/lanes.js';
import { sendMessages } from '../../stores/job-queue.js';
import { type Job, laneOfJob } from './jobs.js';

/**
 * Enqueue jobs, each on its lane's queue (10 per SendMessageBatch). Returns the indexes of the
 * jobs that were NOT accepted (entry failures); throws if a call fails outright. Callers report
 * those as failures so the source event comes back. A delay (at most 900 s) marks settle re-runs.
 */
export async function enqueueJobs(jobs: readonly Job[], delaySeconds = 0): Promise<number[]> {
  const byLane = new Map<LaneId, number[]>();
  jobs.forEach((job, i) => {
    const lane = laneOfJob(job, delaySeconds);
    byLane.set(lane, [...(byLane.get(lane) ?? []), i]);
  });
  const failed: number[] = [];
  for (const [lane, indexes] of byLane) {
    const rejected = await sendMessages(
      lane,
      indexes.map((i) => JSON.stringify(jobs[i])),
      delaySeconds,
    );
    failed.push(...rejected.map((j) => indexes[j]!));
  }
  return failed.sort((a, b) => a - b);
}

/** Enqueue one job (delivered after `delaySeconds`, at most 900) or throw. */
export async function enqueueJob(job: Job, delaySeconds = 0): Promise<void> {
  const failed = await enqueueJobs([job], delaySeconds);
  if (failed.length) throw new Error(`could not enqueue ${job.kind} job`);
}
