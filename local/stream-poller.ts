/**
 * Feeds a DynamoDB-stream event source's function the batches Lambda would, shard by shard
 * (parents before children), with Lambda's failure rules: `batchItemFailures` retries from the
 * first failed record; a thrown error retries the batch, bisected when configured; after
 * `retryAttempts` retries, or once the oldest record is older than `maxRecordAgeSeconds`, the batch
 * is described to the on-failure queue and skipped. Progress is checkpointed per shard.
 * The source's event filters (Lambda FilterCriteria, lib/defs/event-sources.ts) apply first, as
 * in Lambda: a record matching none of them is never delivered, and its position counts as done.
 * The on-failure message has the shape Lambda's has (requestContext, responseContext, version,
 * timestamp, DDBStreamBatchInfo), so `npm run redrive` reads both alike.
 */
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { functions, type StreamSourceDef } from '../lib/defs/index.js';
import { localAccountId, localRegion } from './aws-local.js';
import type { CheckpointStore } from './checkpoints.js';
import { passesFilters, validateFilterPattern } from './event-filter.js';
import { lambdaContext, loadHandler } from './handlers.js';
import type { Poller } from './poller.js';
import { toLambdaRecord } from './stream-records.js';

export interface StreamPollerOptions {
  readonly source: StreamSourceDef;
  readonly streams: DynamoDBStreamsClient;
  readonly sqs: SQSClient;
  readonly streamArn: string;
  readonly onFailureQueueUrl: string;
  readonly checkpoints: CheckpointStore;
  /** Calls the function; defaults to the source's handler module (tests inject their own). */
  readonly invoke?: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
}

export function startStreamPoller(opts: StreamPollerOptions): Poller {
  for (const pattern of opts.source.filters) validateFilterPattern(pattern);
  let running = true;
  const active = new Map<string, Promise<void>>();
  const discover = (async () => {
    while (running) {
      try {
        for (const shard of await listShards(opts)) {
          const id = shard.ShardId!;
          if (active.has(id) || checkpoint(opts, id).finished) continue;
          const parent = shard.ParentShardId;
          const parentPending = parent && active.has(parent) && !checkpoint(opts, parent).finished;
          if (parentPending) continue;
          active.set(id, pollShard(opts, id, () => running).finally(() => active.delete(id)));
        }
      } catch (error) {
        if (running) console.error(`stream poller ${opts.source.id}:`, (error as Error).message);
      }
      await sleep(1000);
    }
  })();
  return {
    id: opts.source.id,
    async stop() {
      running = false;
      await discover;
      await Promise.allSettled([...active.values()]);
    },
  };
}

const checkpoint = (opts: StreamPollerOptions, shardId: string) =>
  opts.checkpoints.get(opts.streamArn, opts.source.id, shardId);

async function listShards(opts: StreamPollerOptions): Promise<Shard[]> {
  const shards: Shard[] = [];
  let ExclusiveStartShardId: string | undefined;
  do {
    const { StreamDescription } = await opts.streams.send(
      new DescribeStreamCommand({ StreamArn: opts.streamArn, ExclusiveStartShardId }),
    );
    shards.push(...(StreamDescription?.Shards ?? []));
    ExclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
  } while (ExclusiveStartShardId);
  return shards;
}

async function iteratorFor(opts: StreamPollerOptions, shardId: string): Promise<string | undefined> {
  const seq = checkpoint(opts, shardId).sequenceNumber;
  const { ShardIterator } = await opts.streams.send(
    new GetShardIteratorCommand({
      StreamArn: opts.streamArn,
      ShardId: shardId,
      ...(seq
        ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: seq }
        : { ShardIteratorType: opts.source.startingPosition }),
    }),
  );
  return ShardIterator;
}

async function pollShard(opts: StreamPollerOptions, shardId: string, running: () => boolean): Promise<void> {
  let iterator: string | undefined;
  let idleMs = 20;
  while (running()) {
    try {
      iterator ??= await iteratorFor(opts, shardId);
      if (!iterator) break; // closed shard with nothing after the checkpoint
      const out = await opts.streams.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: opts.source.batchSize }),
      );
      const records = (out.Records ?? []).map((r: StreamRecord) => toLambdaRecord(r, opts.streamArn));
      const matching = records.filter((r) => passesFilters(opts.source.filters, r));
      const handled = matching.length ? await deliver(opts, shardId, matching, running) : true;
      // Filtered-out records after the last delivered one are done too (Lambda drops them).
      const last = records.at(-1)?.dynamodb?.SequenceNumber;
      if (handled && last && last !== matching.at(-1)?.dynamodb?.SequenceNumber) {
        opts.checkpoints.set(opts.streamArn, opts.source.id, shardId, { sequenceNumber: last });
      }
      if (!handled) continue; // stopping: the loop ends without moving past undelivered records
      iterator = out.NextShardIterator;
      if (!iterator) break;
      idleMs = records.length ? 20 : Math.min(idleMs * 2, 200);
      if (!records.length) await sleep(idleMs);
    } catch (error) {
      if (!running()) return;
      console.error(`stream poller ${opts.source.id} shard ${shardId}:`, (error as Error).message);
      iterator = undefined; // expired or lost: resume from the checkpoint
      await sleep(500);
    }
  }
  if (running()) opts.checkpoints.set(opts.streamArn, opts.source.id, shardId, { ...checkpoint(opts, shardId), finished: true });
}

/** Hands `records` to the function until every one is handled or given up on (true), or the poller stops (false). */
async function deliver(
  opts: StreamPollerOptions,
  shardId: string,
  records: DynamoDBRecord[],
  running: () => boolean,
): Promise<boolean> {
  const { source } = opts;
  let pending = records;
  let size = records.length;
  let retries = 0;
  const save = (seq: string | undefined) =>
    seq && opts.checkpoints.set(opts.streamArn, source.id, shardId, { sequenceNumber: seq });

  while (pending.length && running()) {
    const batch = pending.slice(0, size);
    const outcome = await invoke(opts, batch);
    if (outcome === undefined) {
      save(batch.at(-1)!.dynamodb!.SequenceNumber);
      pending = pending.slice(batch.length);
      size = Math.min(source.batchSize, pending.length || source.batchSize);
      retries = 0;
      continue;
    }
    const { failedAt, reported } = outcome;
    // Records before the first failure are done; the retry starts at the failure.
    save(batch[failedAt - 1]?.dynamodb?.SequenceNumber);
    if (failedAt > 0) retries = 0; // progress: the retry budget belongs to the new first record
    pending = pending.slice(failedAt);
    const retried = batch.slice(failedAt);
    retries += 1;
    const oldest = retried[0]!.dynamodb!.ApproximateCreationDateTime ?? Date.now() / 1000;
    const tooOld = Date.now() / 1000 - oldest > source.maxRecordAgeSeconds;
    if (retries > source.retryAttempts || tooOld) {
      // A reported failure names its record: give up on that one alone; a thrown error, on the
      // part that was attempted.
      const failedBatch = reported ? retried.slice(0, 1) : retried;
      await sendToOnFailure(opts, shardId, failedBatch, retries, { thrown: !reported, tooOld });
      save(failedBatch.at(-1)!.dynamodb!.SequenceNumber);
      pending = pending.slice(failedBatch.length);
      size = Math.min(source.batchSize, pending.length || source.batchSize);
      retries = 0;
      continue;
    }
    // Halving the retried part isolates a poison record, so giving up skips as little as possible.
    size = source.bisectBatchOnError && retried.length > 1 ? Math.ceil(retried.length / 2) : retried.length;
    await sleep(Math.min(50 * 2 ** retries, 2000) * (0.5 + Math.random() / 2));
  }
  return pending.length === 0;
}

/**
 * Invokes the function. Undefined on success; else the index of the first failed record and
 * whether the function reported it (batchItemFailures) rather than throwing.
 */
async function invoke(
  opts: StreamPollerOptions,
  batch: DynamoDBRecord[],
): Promise<{ failedAt: number; reported: boolean } | undefined> {
  const { source } = opts;
  const event: DynamoDBStreamEvent = { Records: batch };
  try {
    const result = opts.invoke ? await opts.invoke(event) : await invokeHandler(source, event);
    const failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    if (failed.size === 0) return undefined;
    const index = batch.findIndex((r) => failed.has(r.dynamodb!.SequenceNumber!));
    // An identifier not in the batch fails the whole batch, as in Lambda.
    return index < 0 ? { failedAt: 0, reported: false } : { failedAt: index, reported: true };
  } catch (error) {
    console.error(`${source.fn} failed a stream batch of ${batch.length}:`, (error as Error).message);
    return { failedAt: 0, reported: false };
  }
}

async function invokeHandler(source: StreamSourceDef, event: DynamoDBStreamEvent) {
  const handler = await loadHandler(source.fn);
  const ctx = lambdaContext(source.fn, functions[source.fn].timeoutSeconds * 1000, crypto.randomUUID());
  return (await handler(event, ctx)) as DynamoDBBatchResponse | undefined;
}

/** The on-failure record of a stream batch, as Lambda writes it to an SQS on-failure destination. */
export interface StreamFailureRecord {
  readonly requestContext: {
    readonly requestId: string;
    readonly functionArn: string;
    readonly condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded';
    readonly approximateInvokeCount: number;
  };
  readonly responseContext: { readonly statusCode: number; readonly executedVersion: string; readonly functionError?: string };
  readonly version: '1.0';
  readonly timestamp: string;
  readonly DDBStreamBatchInfo: {
    readonly shardId: string;
    readonly startSequenceNumber: string;
    readonly endSequenceNumber: string;
    readonly approximateArrivalOfFirstRecord: string;
    readonly approximateArrivalOfLastRecord: string;
    readonly batchSize: number;
    readonly streamArn: string;
  };
}

/** Function ARN of a function id in the local runtime (what Lambda puts in requestContext.functionArn). */
export const localFunctionArn = (fn: string) => `arn:aws:lambda:${localRegion}:${localAccountId}:function:tickfeed-${fn}`;

/** Epoch seconds as DynamoDB-stream on-failure records write arrivals: `2019-11-14T00:13:19Z`. */
const arrival = (seconds: number | undefined) => new Date((seconds ?? Date.now() / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The on-failure destination gets what Lambda sends: where the batch was, not its records. */
async function sendToOnFailure(
  opts: StreamPollerOptions,
  shardId: string,
  batch: DynamoDBRecord[],
  attempts: number,
  how: { thrown: boolean; tooOld: boolean },
) {
  const body: StreamFailureRecord = {
    requestContext: {
      requestId: crypto.randomUUID(),
      functionArn: localFunctionArn(opts.source.fn),
      condition: how.tooOld ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted',
      approximateInvokeCount: attempts,
    },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', ...(how.thrown ? { functionError: 'Unhandled' } : {}) },
    version: '1.0',
    timestamp: new Date().toISOString(),
    DDBStreamBatchInfo: {
      shardId,
      startSequenceNumber: batch[0]!.dynamodb!.SequenceNumber!,
      endSequenceNumber: batch.at(-1)!.dynamodb!.SequenceNumber!,
      approximateArrivalOfFirstRecord: arrival(batch[0]!.dynamodb!.ApproximateCreationDateTime),
      approximateArrivalOfLastRecord: arrival(batch.at(-1)!.dynamodb!.ApproximateCreationDateTime),
      batchSize: batch.length,
      streamArn: opts.streamArn,
    },
  };
  await opts.sqs.send(new SendMessageCommand({ QueueUrl: opts.onFailureQueueUrl, MessageBody: JSON.stringify(body) }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
