/**
 * Fan-out queue consumer: runs each job (services/fanout/run.ts) and reports partial batch failures,
 * so only failed messages come back; after maxReceiveCount they move to the DLQ. A job that does
 * not parse fails every time and so ends in the DLQ, visible, instead of being dropped.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../platform/logger.js';
import { parseJob } from '../services/fanout/jobs.js';
import { runJob } from '../services/fanout/run.js';

const processor = new BatchProcessor(EventType.SQS);

async function recordHandler(record: SQSRecord): Promise<void> {
  try {
    await runJob(parseJob(record.body));
  } catch (error) {
    logger.warn('fan-out job failed', {
      error: error as Error,
      messageId: record.messageId,
      receiveCount: record.attributes.ApproximateReceiveCount,
    });
    throw error;
  }
}

export const handler = async (event: SQSEvent) => processPartialResponse(event, recordHandler, processor);
