/**
 * A job lane's SQS consumer (lib/defs/lanes.ts): runs each job (services/jobs/run.ts) and reports
 * partial batch failures, so only failed messages come back; after maxReceiveCount they move to the
 * lane's DLQ. A job that does not parse, or that belongs to another lane, fails every time and so
 * ends in the DLQ, visible, instead of being dropped or run by a worker without its grants.
 * Records each job's latency (enqueue → done) as a metric with the lane as its dimension. A batch's
 * notify jobs for one recipient are applied together (a follow burst: one transaction per 20 follows),
 * and all its recipients' first reads are one shared read.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { LaneId } from '../../lib/defs/lanes.js';
import { logger } from '../platform/logger.js';
import { metrics, recordJobLatency } from '../platform/metrics.js';
import { assertLane, type Job, parseJob } from '../services/jobs/jobs.js';
import { fanoutBatch } from '../services/fanout/fanout.js';
import { foldNotifyJobs } from '../services/notifications/fold.js';
import { runJob } from '../services/jobs/run.js';
import { enqueueJob } from '../services/jobs/bus.js';
import { isPreLanesJob } from '../services/jobs/legacy-queue.js';
import { applyNotificationBatch } from '../services/notifications/batch.js';
import { eventsOfJob } from '../services/notifications/events.js';

const parseOrUndefined = (r: SQSRecord): Job | undefined => {
  try {
    return parseJob(r.body);
  } catch {
    return undefined; // left to recordHandler, which fails it alone
  }
};

/**
 * The jobs of the batch that run together, by message id: notify jobs together per recipient
 * (services/notifications/fold.ts) and applied as one batch (services/notifications/batch.ts), fanout pages
 * as one batch (services/fanout/fanout.ts) — the reads they start and end with are shared.
 */
function batchedJobs(records: readonly SQSRecord[], lane: LaneId): Map<string, Promise<void>> {
  const out = new Map<string, Promise<void>>();
  const jobs = lane === 'notify' || lane === 'fanout' ? records.map(parseOrUndefined) : [];
  const settle = (messageId: string, done: Promise<void>) => {
    done.catch(() => undefined); // each member's recordHandler reports it
    out.set(messageId, done);
  };
  if (lane === 'notify') {
    const folds = foldNotifyJobs(jobs);
    const applied = applyNotificationBatch(folds.map((f) => ({ recipient: f.recipient, events: eventsOfJob({ kind: 'notify', recipient: f.recipient, events: f.events }) })));
    folds.forEach((fold, f) => fold.members.forEach((i) => settle(records[i]!.messageId, applied[f]!)));
  }
  if (lane === 'fanout') {
    const pages = jobs.flatMap((job, i) => (job?.kind === 'fanout' ? [{ job, i }] : []));
    const done = fanoutBatch(
      pages.map((p) => p.job),
      pages.map((p) => Number(records[p.i]!.attributes.ApproximateReceiveCount) > 1),
    );
    pages.forEach((p, k) => settle(records[p.i]!.messageId, done[k]!));
  }
  return out;
}

/** Runs a job of this lane; forwards a job queued before the lanes to its own (services/jobs/legacy-queue.ts). */
async function runOrForward(job: Job, lane: LaneId): Promise<void> {
  if (!isPreLanesJob(job, lane)) return runJob(assertLane(job, lane));
  logger.info('forwarded a job queued before the lanes to its lane', { kind: job.kind });
  await enqueueJob(job);
}

export function laneHandler(lane: LaneId) {
  // Default dimensions survive each flush (plain ones are cleared with the stored metrics).
  metrics.setDefaultDimensions({ lane });

  /**
   * One invocation's record handler. Everything a batch holds — the jobs that run together, the
   * batch processor's per-batch state — lives in the call: Lambda gives each concurrent invocation
   * an instance of its own, but a module is shared by every invocation an instance (or a local
   * poller's loops) runs, so nothing of one batch may sit where another's would overwrite it.
   */
  const recordHandlerFor = (together: ReadonlyMap<string, Promise<void>>) =>
    async function recordHandler(record: SQSRecord): Promise<void> {
      try {
        await (together.get(record.messageId) ?? runOrForward(parseJob(record.body), lane));
        recordJobLatency(Date.now() - Number(record.attributes.SentTimestamp));
      } catch (error) {
        logger.warn('job failed', {
          lane,
          error: error as Error,
          messageId: record.messageId,
          receiveCount: record.attributes.ApproximateReceiveCount,
        });
        throw error;
      }
    };

  return async (event: SQSEvent, context?: Context) => {
    const recordHandler = recordHandlerFor(batchedJobs(event.Records, lane));
    try {
      return await processPartialResponse(event, recordHandler, new BatchProcessor(EventType.SQS), { context });
    } finally {
      metrics.publishStoredMetrics();
    }
  };
}
