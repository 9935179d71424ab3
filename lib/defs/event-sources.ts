/**
 * Event sources (SQS queue → function, DynamoDB stream → function), with the retry and failure
 * settings Lambda applies in AWS and the local pollers reproduce — event filters included: each
 * stream consumer's `filters` are Lambda FilterCriteria patterns, applied by the CDK stack as the
 * mapping's FilterCriteria and by the local stream poller with the same matcher semantics
 * (local/event-filter.ts implements the subset used here: exact values, `prefix`, `exists`).
 */
import type { FunctionId } from './functions.js';
import { feedPartitionPrefix } from './key-prefixes.js';
import { laneList, laneQueue, laneSource, laneWorker } from './lanes.js';
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
  /**
   * Lambda's MaximumConcurrency for the mapping (2–1000): at most this many concurrent invocations,
   * so a burst of jobs cannot take the account's whole concurrency and starve the API. From cdk.json
   * context `contextKey`, else `default`.
   */
  readonly maxConcurrency?: { readonly contextKey: string; readonly default: number };
}

/**
 * A Lambda event filter pattern (the JSON of one FilterCriteria filter). Leaves are arrays of
 * alternatives: exact strings, `{ prefix }` or `{ exists }` — the subset local/event-filter.ts
 * implements; anything else is refused by its validation (and by a unit test over every source).
 */
export type FilterValue = string | { readonly prefix: string } | { readonly exists: boolean };
export interface FilterPattern {
  readonly [field: string]: readonly FilterValue[] | FilterPattern;
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
  /**
   * Only records matching one of these patterns reach the function (Lambda FilterCriteria; an
   * empty list = every record). Records filtered out are skipped, as Lambda does: never delivered.
   */
  readonly filters: readonly FilterPattern[];
  /**
   * Lambda's tumbling window (TumblingWindowInSeconds, 1–900): invocations get `shardId`, `window`
   * and the `state` the previous one returned, and a final one at the window's end
   * (lib/defs/stream-window.ts). The local poller emulates it (its length can be shortened there
   * with LOCAL_TUMBLING_WINDOW_SECONDS).
   */
  readonly tumblingWindowSeconds?: number;
}

export type EventSourceDef = SqsSourceDef | StreamSourceDef;

/** A timeline item's key (`t#<author>`): originals, as opposed to home-feed copies and heads (`f#`). */
const timelineKeys = { Keys: { pk: { S: [{ prefix: feedPartitionPrefix.timeline }] } } } as const;

/** INSERT of a timeline item: a new original (fan-out job; counted in rollups). */
export const timelineInsert: FilterPattern = { eventName: ['INSERT'], dynamodb: timelineKeys };

/**
 * MODIFY of a timeline item that gains `deletedAt` (DELETE /activities: a retract job). Copies,
 * heads, trims and TTL removals match neither pattern.
 */
export const timelineDelete: FilterPattern = {
  eventName: ['MODIFY'],
  dynamodb: {
    ...timelineKeys,
    NewImage: { deletedAt: { S: [{ exists: true }] } },
    OldImage: { deletedAt: { S: [{ exists: false }] } },
  },
};

/**
 * MODIFY of a live timeline item that carries `editedAt` (PATCH /activities: an edit job, if the
 * version moved — the outbox compares the images). A delete of an edited post matches
 * timelineDelete only.
 */
export const timelineEdit: FilterPattern = {
  eventName: ['MODIFY'],
  dynamodb: { ...timelineKeys, NewImage: { editedAt: { S: [{ exists: true }] }, deletedAt: { S: [{ exists: false }] } } },
};

/**
 * INSERT/MODIFY of an activity's counter item (`x#<activityId>`) that carries `ev`: a reaction or
 * comment was added (a notification for the activity's author). Removals and the delete's close
 * clear `ev`, so they never match.
 */
export const counterAdd: FilterPattern = {
  eventName: ['INSERT', 'MODIFY'],
  dynamodb: { Keys: { pk: { S: [{ prefix: feedPartitionPrefix.counter }] } }, NewImage: { ev: { S: [{ exists: true }] } } },
};

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
    filters: [timelineInsert, timelineDelete, timelineEdit, counterAdd],
  },
  /**
   * A second consumer of the same stream (one stream table; Lambda allows two consumers per
   * DynamoDB stream shard). It aggregates a 2-minute tumbling window per shard and writes it once
   * (docs/rollups.md: cost per post vs freshness). Retries are safe: the handler counts each
   * activity exactly once under retry, bisection and partial writes.
   */
  {
    kind: 'stream',
    id: 'feedRollups',
    table: 'feed',
    fn: 'rollups',
    // A GetRecords page: aggregating is free, so fewer, larger invocations only save time.
    batchSize: 1000,
    startingPosition: 'TRIM_HORIZON',
    retryAttempts: 10,
    maxRecordAgeSeconds: 6 * 3600,
    bisectBatchOnError: true,
    reportBatchItemFailures: true,
    onFailure: 'streamFailures',
    filters: [timelineInsert],
    tumblingWindowSeconds: 120,
  },
  // One SQS source per job lane: its own queue, batch size and MaximumConcurrency (lanes.ts).
  ...laneList.map((lane): SqsSourceDef => ({
    kind: 'sqs',
    id: laneSource(lane.id),
    queue: laneQueue(lane.id),
    fn: laneWorker(lane.id),
    batchSize: lane.batchSize,
    maxBatchingWindowSeconds: lane.batchingWindowSeconds,
    reportBatchItemFailures: true,
    maxConcurrency: { contextKey: `${lane.id}MaxConcurrency`, default: lane.maxConcurrency },
  })),
];
