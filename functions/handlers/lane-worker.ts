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
import { assertLane, parseJob } from '../services/jobs/jobs.js';
import { foldNotifyJobs } from '../services/jobs/fold.js';
import { runJob } from '../services/jobs/run.js';
import { applyNotificationBatch } from '../services/notifications/batch.js';
import { eventsOfJob } from '../services/notifications/events.js';

/**
 * The batch's notify jobs, folded per recipient (services/jobs/fold.ts) and applied as one batch
 * (services/notifications/batch.ts: the reads they start from are shared). A record that does not
 * parse is left to recordHandler, which fails it alone.
 */
function foldBatch(records: readonly SQSRecord[], lane: LaneId): Map<string, Promise<void>> {
  if (lane !== 'notify') return new Map();
  const jobs = records.map((r) => {
    try {
      return parseJob(r.body);
    } catch {
      return undefined;
    }
  });
  const folds = foldNotifyJobs(jobs);
  const applied = applyNotificationBatch(folds.map((f) => ({ recipient: f.recipient, events: eventsOfJob({ kind: 'notify', recipient: f.recipient, events: f.events }) })));
  const out = new Map<string, Promise<void>>();
  folds.forEach((fold, f) => {
    applied[f]!.catch(() => undefined); // each member's recordHandler reports it
    for (const i of fold.members) out.set(records[i]!.messageId, applied[f]!);
  });
  return out;
}

export function laneHandler(lane: LaneId) {
  const processor = new BatchProcessor(EventType.SQS);
  // Default dimensions survive each flush (plain ones are cleared with the stored metrics).
  metrics.setDefaultDimensions({ lane });

  /** The batch's folded notify jobs, by message id (their shared apply), for this invocation. */
  let folded = new Map<string, Promise<void>>();

  async function recordHandler(record: SQSRecord): Promise<void> {
    try {
      await (folded.get(record.messageId) ?? runJob(assertLane(parseJob(record.body), lane)));
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
  }

  return async (event: SQSEvent, context?: Context) => {
    folded = foldBatch(event.Records, lane);
    try {
      return await processPartialResponse(event, recordHandler, processor, { context });
    } finally {
      metrics.publishStoredMetrics();
    }
  };
}
