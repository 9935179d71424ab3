/**
 * Feed-table stream → fan-out queue (see services/fanout/outbox.ts for why the stream is the outbox).
 * Jobs go out 10 per SendMessageBatch; a record whose job was not accepted is reported as a batch
 * item failure, so Lambda retries from it (records before it are done; a retried record re-sends a
 * job whose writes are idempotent).
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../platform/logger.js';
import { enqueueJobs } from '../services/jobs/bus.js';
import { jobsOfBatch } from '../services/jobs/outbox-jobs.js';

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const pending = jobsOfBatch(event.Records);
  if (pending.length === 0) return { batchItemFailures: [] };
  let failed: number[];
  try {
    failed = await enqueueJobs(pending.map((p) => p.job));
  } catch (error) {
    logger.error('outbox: enqueue failed', { error: error as Error, jobs: pending.length });
    failed = pending.map((_, i) => i); // unknown which got through: retry all (idempotent)
  }
  if (failed.length) logger.warn('outbox: jobs not accepted', { failed: failed.length });
  return { batchItemFailures: failed.map((i) => ({ itemIdentifier: pending[i]!.seq })) };
};
