/**
 * A job lane's SQS consumer (lib/defs/lanes.ts): runs each job (services/jobs/run.ts) and reports
 * partial batch failures, so only failed messages come back; after maxReceiveCount they move to the
 * lane's DLQ. A job that does not parse, or that belongs to another lane, fails every time and so
 * ends in the DLQ, visible, instead of being dropped or run by a worker without its grants.
 * Records each job's latency (enqueue → done) as a metric with the lane as its dimension.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { LaneId } from '../../lib/defs/lanes.js';
import { logger } from '../platform/logger.js';
import { metrics, recordJobLatency } from '../platform/metrics.js';
import { assertLane, parseJob } from '../services/jobs/jobs.js';
import { runJob } from '../services/jobs/run.js';

export function laneHandler(lane: LaneId) {
  const processor = new BatchProcessor(EventType.SQS);
  // Default dimensions survive each flush (plain ones are cleared with the stored metrics).
  metrics.setDefaultDimensions({ lane });

  async function recordHandler(record: SQSRecord): Promise<void> {
    try {
      await runJob(assertLane(parseJob(record.body), lane));
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
    try {
      return await processPartialResponse(event, recordHandler, processor, { context });
    } finally {
      metrics.publishStoredMetrics();
    }
  };
}
