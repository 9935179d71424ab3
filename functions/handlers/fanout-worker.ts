/**
 * Fan-out queue consumer. Walking-skeleton version: acknowledges `inserted` jobs by writing a
 * delivery marker, and fails messages it cannot parse (they return, then reach the DLQ).
 * The fan-out issue replaces the job handling.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { tables } from '../../lib/defs/tables.js';
import { doc } from '../core/clients.js';
import { requireEnv } from '../core/env.js';

const feedTable = requireEnv(tables.feed.envVar);
const processor = new BatchProcessor(EventType.SQS);

async function recordHandler(record: SQSRecord): Promise<void> {
  const job = JSON.parse(record.body) as { kind?: string; pk?: string; rk?: string };
  if (job.kind !== 'inserted' || !job.pk || !job.rk) throw new Error(`unknown job: ${record.body.slice(0, 100)}`);
  if (job.pk.startsWith('delivered#')) return; // our own marker: stop the loop here
  await doc.send(
    new PutCommand({ TableName: feedTable, Item: { pk: `delivered#${job.pk}`, rk: BigInt(job.rk) } }),
  );
}

export const handler = async (event: SQSEvent) => processPartialResponse(event, recordHandler, processor);
