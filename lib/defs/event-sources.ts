/**
 * Event sources (SQS queue → function, DynamoDB stream → function), with the retry and failure
 * settings Lambda applies in AWS and the local pollers reproduce.
 */
import type { FunctionId } from './functions.js';
import type { QueueId } from './queues.js';
import type { TableId } from './tables.js';

export interface SqsSourceDef {
  readonly kind: 'sqs';
  readonly id: string;
  readonly queue: QueueId;
  readonly fn: FunctionId;
  readonly batchSize: number;
  readonly maxBatchingWindowSeconds: number;
  /** Failed messages come back individually; redrive to the queue's DLQ after maxReceiveCount. */
  readonly reportBatchItemFailures: true;
}

export interface StreamSourceDef {
  readonly kind: 'stream';
  readonly id: string;
  readonly table: TableId;
  readonly fn: FunctionId;
  readonly batchSize: number;
  readonly startingPosition: 'TRIM_HORIZON' | 'LATEST';
  /** Bounded: the default (-1) retries a poison record until it ages out of the stream. */
  readonly retryAttempts: number;
  readonly maxRecordAgeSeconds: number;
  readonly bisectBatchOnError: boolean;
  readonly reportBatchItemFailures: true;
  /** Where a record goes once its retries are exhausted. */
  readonly onFailure: QueueId;
}

export type EventSourceDef = SqsSourceDef | StreamSourceDef;

export const eventSources: readonly EventSourceDef[] = [
  {
    kind: 'stream',
    id: 'feedOutbox',
    table: 'feed',
    fn: 'outbox',
    batchSize: 100,
    startingPosition: 'TRIM_HORIZON',
    retryAttempts: 10,
    maxRecordAgeSeconds: 6 * 3600,
    bisectBatchOnError: true,
    reportBatchItemFailures: true,
    onFailure: 'streamFailures',
  },
  /**
   * A second consumer of the same stream (one stream table; Lambda allows two consumers per
   * DynamoDB stream shard). Larger batches aggregate more activities per row. Retries are safe:
   * the handler counts each activity exactly once under retry, bisection and partial writes.
   */
  {
    kind: 'stream',
    id: 'feedRollups',
    table: 'feed',
    fn: 'rollups',
    batchSize: 500,
    startingPosition: 'TRIM_HORIZON',
    retryAttempts: 10,
    maxRecordAgeSeconds: 6 * 3600,
    bisectBatchOnError: true,
    reportBatchItemFailures: true,
    onFailure: 'streamFailures',
  },
  {
    kind: 'sqs',
    id: 'fanoutJobs',
    queue: 'fanout',
    fn: 'fanoutWorker',
    batchSize: 10,
    maxBatchingWindowSeconds: 0,
    reportBatchItemFailures: true,
  },
];
