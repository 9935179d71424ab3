/**
 * Re-drive failed stream batches from their on-failure records, while the stream still holds them
 * (DynamoDB Streams keep records 24 h). Lambda's on-failure message (and the local poller's, same
 * shape) names the batch — stream, shard, first and last sequence number — not its records; so:
 *
 *   1. receive an on-failure message (`DDBStreamBatchInfo`);
 *   2. read that range back from the stream: GetShardIterator AT_SEQUENCE_NUMBER start, then
 *      GetRecords until past the end sequence number (the first record must be the start one, else
 *      the stream no longer holds the batch: `expired`, the message stays);
 *   3. keep the records the consumer's event filters let through (Lambda delivered only those) and
 *      invoke the consumer with them, `batchSize` at a time — locally its handler in this process
 *      (`invoke`); in AWS the same event would go to the deployed function with Lambda's Invoke API
 *      (RequestResponse, FunctionName = requestContext.functionArn), success meaning no
 *      FunctionError and no batchItemFailures;
 *   4. delete the message once every record went through; otherwise leave it (visible again at
 *      once) and report why.
 * The consumers are idempotent under redelivery (outbox jobs are idempotent), so re-driving a batch
 * that partly went through before is safe. A consumer with a tumbling window (rollups) gets the
 * range replayed as a window of its own: its batches with the state carried from one to the next,
 * starting from a `ReplayState` (count what your own marks do not cover, lib/defs/stream-window.ts),
 * then the final invocation — the records count as delivered once that succeeded.
 */
import { type DynamoDBStreamsClient, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, type Message, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { constructId, eventSources, type StreamSourceDef } from '../lib/defs/index.js';
import {
  type DynamoDBStreamWindowEvent,
  type DynamoDBStreamWindowResponse,
  type ReplayState,
  type WindowStateJson,
  windowOf,
  windowStartMs,
} from '../lib/defs/stream-window.js';
import { passesFilters } from './event-filter.js';
import type { StreamFailureRecord } from './stream-poller.js';
import { getRecords } from './stream-records.js';

export type RedriveInvoke = (
  source: StreamSourceDef,
  event: DynamoDBStreamEvent | DynamoDBStreamWindowEvent,
) => Promise<DynamoDBBatchResponse | DynamoDBStreamWindowResponse | void>;

export interface RedriveOptions {
  readonly sqs: SQSClient;
  readonly streams: DynamoDBStreamsClient;
  /** The on-failure queue (e.g. the stream-failures queue). */
  readonly queueUrl: string;
  readonly invoke: RedriveInvoke;
  /** Which consumer a message is for; default: from requestContext.functionArn (see sourceOfFunctionArn). */
  readonly source?: StreamSourceDef;
  /** Stop after this many messages (default: until the queue has none left to try). */
  readonly maxMessages?: number;
}

export type RedriveOutcome = 'redriven' | 'failed' | 'expired' | 'unreadable';

export interface RedriveResult {
  readonly messageId: string;
  readonly fn?: string;
  readonly shardId?: string;
  readonly startSequenceNumber?: string;
  /** Records read back from the stream in the batch's range / delivered after the source's filters. */
  readonly read: number;
  readonly delivered: number;
  readonly outcome: RedriveOutcome;
  readonly detail?: string;
}

const pascal = (id: string) => constructId(id);

/**
 * The stream source whose consumer a function ARN names: locally `…:function:tickfeed-<fn>`; in AWS
 * the CDK-generated name contains the construct id (`…:function:Tickfeed-RollupsFunction1A2B…`).
 */
export function sourceOfFunctionArn(arn: string): StreamSourceDef | undefined {
  const name = arn.split(':function:')[1]?.split(':')[0] ?? '';
  return eventSources.find((s): s is StreamSourceDef => s.kind === 'stream' && (name === `tickfeed-${s.fn}` || name.includes(`${pascal(s.fn)}Function`)));
}

/** Parses an on-failure message body; throws on anything that is not a DynamoDB-stream batch record. */
export function parseFailureRecord(body: string): StreamFailureRecord {
  const record = JSON.parse(body) as StreamFailureRecord;
  const info = record?.DDBStreamBatchInfo;
  for (const key of ['shardId', 'startSequenceNumber', 'endSequenceNumber', 'streamArn'] as const) {
    if (typeof info?.[key] !== 'string' || info[key] === '') throw new Error(`not a DynamoDB-stream on-failure record: DDBStreamBatchInfo.${key} missing`);
  }
  return record;
}

class ExpiredError extends Error {}

/** The stream records from `start` through `end` (sequence numbers) of one shard. */
export async function readBatchRange(
  streams: DynamoDBStreamsClient,
  info: Pick<StreamFailureRecord['DDBStreamBatchInfo'], 'streamArn' | 'shardId' | 'startSequenceNumber' | 'endSequenceNumber'>,
): Promise<DynamoDBRecord[]> {
  const end = BigInt(info.endSequenceNumber);
  let iterator: string | undefined;
  try {
    ({ ShardIterator: iterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: info.streamArn,
        ShardId: info.shardId,
        ShardIteratorType: 'AT_SEQUENCE_NUMBER',
        SequenceNumber: info.startSequenceNumber,
      }),
    ));
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TrimmedDataAccessException' || name === 'ResourceNotFoundException') throw new ExpiredError(`${name}: ${(error as Error).message}`);
    throw error;
  }
  const out: DynamoDBRecord[] = [];
  let emptyReads = 0;
  while (iterator) {
    const page = await getRecords(streams, info.streamArn, iterator);
    for (const r of page.records) {
      if (BigInt(r.dynamodb!.SequenceNumber!) > end) return check(out);
      out.push(r);
    }
    if (out.length && BigInt(out.at(-1)!.dynamodb!.SequenceNumber!) >= end) return check(out);
    emptyReads = page.records.length ? 0 : emptyReads + 1;
    if (emptyReads > 10) break; // an open shard with nothing more: the range is not all there
    iterator = page.nextIterator;
  }
  return check(out);

  function check(records: DynamoDBRecord[]): DynamoDBRecord[] {
    if (records[0]?.dynamodb?.SequenceNumber !== info.startSequenceNumber) {
      throw new ExpiredError(`the stream no longer holds ${info.startSequenceNumber} (records live 24 h)`);
    }
    if (BigInt(records.at(-1)!.dynamodb!.SequenceNumber!) < end)
      throw new Error(`read only up to ${records.at(-1)!.dynamodb!.SequenceNumber}, not ${info.endSequenceNumber}`);
    return records;
  }
}

/** Re-drives the messages of the on-failure queue (see the module comment). */
export async function redriveStreamFailures(opts: RedriveOptions): Promise<RedriveResult[]> {
  const results: RedriveResult[] = [];
  const tried = new Set<string>();
  const max = opts.maxMessages ?? Number.POSITIVE_INFINITY;
  while (results.length < max) {
    const { Messages = [] } = await opts.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: opts.queueUrl,
        MaxNumberOfMessages: Math.min(10, max - results.length),
        WaitTimeSeconds: 0,
        VisibilityTimeout: 120,
      }),
    );
    const fresh = Messages.filter((m) => !tried.has(m.MessageId!));
    for (const m of Messages) if (tried.has(m.MessageId!)) await release(opts, m); // not ours to hold
    if (fresh.length === 0) break;
    for (const message of fresh) {
      tried.add(message.MessageId!);
      const result = await redriveOne(opts, message);
      results.push(result);
      if (result.outcome === 'redriven') {
        await opts.sqs.send(new DeleteMessageCommand({ QueueUrl: opts.queueUrl, ReceiptHandle: message.ReceiptHandle! }));
      } else {
        await release(opts, message);
      }
    }
  }
  return results;
}

const release = (opts: RedriveOptions, m: Message) =>
  opts.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: opts.queueUrl, ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: 0 }));

async function redriveOne(opts: RedriveOptions, message: Message): Promise<RedriveResult> {
  const base = { messageId: message.MessageId!, read: 0, delivered: 0 };
  let record: StreamFailureRecord;
  try {
    record = parseFailureRecord(message.Body ?? '');
  } catch (error) {
    return { ...base, outcome: 'unreadable', detail: (error as Error).message };
  }
  const info = record.DDBStreamBatchInfo;
  const where = { shardId: info.shardId, startSequenceNumber: info.startSequenceNumber };
  const source = opts.source ?? sourceOfFunctionArn(record.requestContext?.functionArn ?? '');
  if (!source) return { ...base, ...where, outcome: 'unreadable', detail: `no stream consumer matches ${record.requestContext?.functionArn}: pass --function` };
  const at = { ...base, ...where, fn: source.fn };
  let records: DynamoDBRecord[];
  try {
    records = await readBatchRange(opts.streams, info);
  } catch (error) {
    return { ...at, outcome: error instanceof ExpiredError ? 'expired' : 'failed', detail: (error as Error).message };
  }
  const matching = records.filter((r) => passesFilters(source.filters, r));
  if (source.tumblingWindowSeconds) return { ...at, read: records.length, ...(await replayWindow(opts, source, info, matching)) };
  let delivered = 0;
  for (let i = 0; i < matching.length; i += source.batchSize) {
    const batch = matching.slice(i, i + source.batchSize);
    try {
      const response = await opts.invoke(source, { Records: batch });
      const failures = response?.batchItemFailures ?? [];
      if (failures.length) {
        return {
          ...at,
          read: records.length,
          delivered,
          outcome: 'failed',
          detail: `the consumer reported ${failures.length} failure(s) from ${failures[0]!.itemIdentifier}`,
        };
      }
    } catch (error) {
      return { ...at, read: records.length, delivered, outcome: 'failed', detail: `the consumer threw: ${(error as Error).message}` };
    }
    delivered += batch.length;
  }
  return { ...at, read: records.length, delivered, outcome: 'redriven' };
}

/** Replays `records` as one tumbling window of `info.shardId` (see the module comment). */
async function replayWindow(
  opts: RedriveOptions,
  source: StreamSourceDef,
  info: StreamFailureRecord['DDBStreamBatchInfo'],
  records: DynamoDBRecord[],
): Promise<Pick<RedriveResult, 'delivered' | 'outcome' | 'detail'>> {
  const seconds = source.tumblingWindowSeconds!;
  const start = windowStartMs(records[0]?.dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000, seconds);
  const replay: ReplayState = { replay: { from: info.startSequenceNumber, to: info.endSequenceNumber } };
  let state: WindowStateJson = replay;
  const call = async (batch: DynamoDBRecord[], final: boolean) => {
    const event: DynamoDBStreamWindowEvent = {
      Records: batch,
      window: windowOf(start, seconds),
      state,
      shardId: info.shardId,
      eventSourceARN: info.streamArn,
      isFinalInvokeForWindow: final,
      isWindowTerminatedEarly: false,
    };
    const response = (await opts.invoke(source, event)) as Partial<DynamoDBStreamWindowResponse> | undefined;
    if (!response?.state) throw new Error('the consumer returned no state');
    if (response.batchItemFailures?.length)
      throw new Error(`the consumer reported ${response.batchItemFailures.length} failure(s) from ${response.batchItemFailures[0]!.itemIdentifier}`);
    state = response.state;
  };
  try {
    for (let i = 0; i < records.length; i += source.batchSize) await call(records.slice(i, i + source.batchSize), false);
    await call([], true);
  } catch (error) {
    return { delivered: 0, outcome: 'failed', detail: `the consumer failed the replayed window: ${(error as Error).message}` };
  }
  return { delivered: records.length, outcome: 'redriven' };
}
