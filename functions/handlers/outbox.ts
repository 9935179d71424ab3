/**
 * Feed-table stream → fan-out queue. The stream is the outbox: once an item is in the table, its
 * stream record exists, so a job cannot be lost between "write" and "enqueue".
 * Walking-skeleton version: forwards each inserted key as a job; the fan-out issue replaces it.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { queues } from '../../lib/defs/queues.js';
import { sqs } from '../core/clients.js';
import { requireEnv } from '../core/env.js';

const queueUrl = requireEnv(queues.fanout.envVar);
const processor = new BatchProcessor(EventType.DynamoDBStreams);

async function recordHandler(record: DynamoDBRecord): Promise<void> {
  if (record.eventName !== 'INSERT') return;
  const keys = record.dynamodb?.Keys;
  const job = { kind: 'inserted', pk: keys?.pk?.S, rk: keys?.rk?.N };
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
}

export const handler = async (event: DynamoDBStreamEvent) =>
  processPartialResponse(event, recordHandler, processor);
