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
 *
 * Tumbling windows (a source's `tumblingWindowSeconds`; LOCAL_TUMBLING_WINDOW_SECONDS or the
 * `tumblingWindowSeconds` option shortens them, for tests): as Lambda, a record belongs to the
 * window of its ApproximateCreationDateTime; each invocation gets `shardId`, `window` and the
 * `state` the last successful invocation of the window returned (a response without `state` is a
 * failure); failed invocations are retried (bisected) with the same state. The window closes once
 * a record of a later window arrives, the shard is caught up past its end, or the shard ends: a
 * final invocation (`isFinalInvokeForWindow`, no records) is retried until it succeeds or its
 * retries run out (then the window's range goes to the on-failure queue). A state over 1 MB ends
 * the window early (`isWindowTerminatedEarly`), which then goes on with a fresh state. The open
 * window — its state included — is checkpointed with the position after every successful
 * invocation, so a restart resumes it as it was.
 *
 * Positions past retention (stream records live 24 hours, here as in AWS): when a shard's
 * checkpoint names a trimmed record, or its iterator points into trimmed data, the poller goes on
 * from the oldest record left (`TRIM_HORIZON`), as Lambda's event source mapping does. It says so
 * in one line per shard and counts the records it skipped (`skipped()`); the records are lost, as
 * they are in AWS, where the IteratorAge alarm exists so that it never comes to that.
 * A stop (Ctrl-C) first delivers the records already read, so nothing read is dropped by the stop.
 */
import { DescribeStreamCommand, type DynamoDBStreamsClient, GetShardIteratorCommand, type Shard } from '@aws-sdk/client-dynamodb-streams';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { functions, type StreamSourceDef } from '../lib/defs/index.js';
import { type DynamoDBStreamWindowEvent, type DynamoDBStreamWindowResponse, windowOf, windowStartMs } from '../lib/defs/stream-window.js';
import { localAccountId, localRegion } from './aws-local.js';
import type { CheckpointStore, OpenWindow, ShardCheckpoint } from './checkpoints.js';
import { passesFilters, validateFilterPattern } from './event-filter.js';
import { lambdaContext, loadHandler } from './handlers.js';
import type { Poller } from './poller.js';
import { type PastRetention, pastRetentionLine, skippedBetween } from './stream-retention.js';
import { getRecords } from './stream-records.js';

export interface StreamPollerOptions {
  readonly source: StreamSourceDef;
  readonly streams: DynamoDBStreamsClient;
  readonly sqs: SQSClient;
  readonly streamArn: string;
  readonly onFailureQueueUrl: string;
  readonly checkpoints: CheckpointStore;
  /** Calls the function; defaults to the source's handler module (tests inject their own). */
  readonly invoke?: (event: DynamoDBStreamEvent | DynamoDBStreamWindowEvent) => Promise<DynamoDBBatchResponse | DynamoDBStreamWindowResponse | void>;
  /** Overrides the source's tumbling window (default: LOCAL_TUMBLING_WINDOW_SECONDS, else the source's). */
  readonly tumblingWindowSeconds?: number;
  /** Epoch ms (injectable for tests). */
  readonly now?: () => number;
  /** Where the one line about a position past retention goes (default: console.error). */
  readonly log?: (line: string) => void;
}

/** A stream poller, with the records it skipped because they were past the stream's retention. */
export interface StreamPoller extends Poller {
  skipped(): number;
}

/**
 * Records per GetRecords call: the most the API returns. The batch size bounds an invocation, not
 * a read: the records the filters drop (most of a feed table's stream: home-feed copies) would
 * otherwise take a read each per batchSize and hold back the ones behind them.
 */
const READ_LIMIT = 1000;
/** Lambda ends a window whose state passes this. */
const MAX_STATE_BYTES = 1024 * 1024;
/** A window closes this long after its end once the shard is caught up (stream records show up ~20 ms after the write). */
const CLOSE_GRACE_MS = 500;

/** The window length a poller uses for `source` (0 = none). */
export function windowSecondsOf(source: StreamSourceDef, override?: number): number {
  if (!source.tumblingWindowSeconds) return 0;
  const local = process.env.LOCAL_TUMBLING_WINDOW_SECONDS;
  const seconds = override ?? (local ? Number(local) : source.tumblingWindowSeconds);
  if (!(Number.isInteger(seconds) && seconds >= 1 && seconds <= 900))
    throw new Error(`tumbling window of ${String(seconds)} s: must be a whole number of seconds in 1–900`);
  return seconds;
}

export function startStreamPoller(opts: StreamPollerOptions): StreamPoller {
  for (const pattern of opts.source.filters) validateFilterPattern(pattern);
  windowSecondsOf(opts.source, opts.tumblingWindowSeconds); // a bad LOCAL_TUMBLING_WINDOW_SECONDS fails the start
  let running = true;
  const active = new Map<string, Promise<void>>();
  const retention: PastRetention = { skipped: 0n };
  const discover = (async () => {
    while (running) {
      try {
        for (const shard of await listShards(opts)) {
          const id = shard.ShardId!;
          if (active.has(id) || checkpoint(opts, id).finished) continue;
          const parent = shard.ParentShardId;
          const parentPending = parent && active.has(parent) && !checkpoint(opts, parent).finished;
          if (parentPending) continue;
          const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
          active.set(
            id,
            pollShard(opts, id, closed, () => running, retention).finally(() => active.delete(id)),
          );
        }
      } catch (error) {
        if (running) console.error(`stream poller ${opts.source.id}:`, (error as Error).message);
      }
      await sleep(1000);
    }
  })();
  return {
    id: opts.source.id,
    skipped: () => Number(retention.skipped),
    async stop() {
      running = false;
      await discover;
      await Promise.allSettled([...active.values()]);
    },
  };
}

const checkpoint = (opts: StreamPollerOptions, shardId: string) => opts.checkpoints.get(opts.streamArn, opts.source.id, shardId);

async function listShards(opts: StreamPollerOptions): Promise<Shard[]> {
  const shards: Shard[] = [];
  let ExclusiveStartShardId: string | undefined;
  do {
    const { StreamDescription } = await opts.streams.send(new DescribeStreamCommand({ StreamArn: opts.streamArn, ExclusiveStartShardId }));
    shards.push(...(StreamDescription?.Shards ?? []));
    ExclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
  } while (ExclusiveStartShardId);
  return shards;
}

/**
 * The shard's iterator from its checkpoint; from the oldest record left when the checkpoint is past
 * the stream's retention (`trimmedAfter` then names the checkpoint, for the count of skipped records).
 */
async function iteratorFor(opts: StreamPollerOptions, shardId: string): Promise<{ iterator?: string; trimmedAfter?: string }> {
  const seq = checkpoint(opts, shardId).sequenceNumber;
  const get = async (
    position: { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER'; SequenceNumber: string } | { ShardIteratorType: StreamSourceDef['startingPosition'] },
  ) => (await opts.streams.send(new GetShardIteratorCommand({ StreamArn: opts.streamArn, ShardId: shardId, ...position }))).ShardIterator;
  if (!seq) return { iterator: await get({ ShardIteratorType: opts.source.startingPosition }) };
  try {
    return { iterator: await get({ ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: seq }) };
  } catch (error) {
    if (!isTrimmed(error)) throw error;
    return { iterator: await horizonIterator(opts, shardId), trimmedAfter: seq };
  }
}

const horizonIterator = async (opts: StreamPollerOptions, shardId: string) =>
  (await opts.streams.send(new GetShardIteratorCommand({ StreamArn: opts.streamArn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;

/** How often a caught-up poller asks whether its position fell past retention (DynamoDB Local's empty pages). */
const HORIZON_CHECK_MS = 5000;

/** The first record an iterator of `spec` reads (undefined: none; trimmed counts as none). */
async function firstRecordOf(
  opts: StreamPollerOptions,
  shardId: string,
  spec: { ShardIteratorType: 'TRIM_HORIZON' } | { ShardIteratorType: 'AT_SEQUENCE_NUMBER'; SequenceNumber: string },
): Promise<string | undefined> {
  try {
    const { ShardIterator } = await opts.streams.send(new GetShardIteratorCommand({ StreamArn: opts.streamArn, ShardId: shardId, ...spec }));
    if (!ShardIterator) return undefined;
    return (await getRecords(opts.streams, opts.streamArn, ShardIterator, 1)).records[0]?.dynamodb?.SequenceNumber;
  } catch (error) {
    if (isTrimmed(error)) return undefined;
    throw error;
  }
}

/**
 * The checkpoint `at` no longer names a place in the shard: the oldest record left is after it
 * (past retention), or records older than it are left while it is gone (the shard was numbered
 * anew). Records with a lower number are older, so they are trimmed first: the second cannot happen
 * to a shard numbered once.
 */
async function positionLost(opts: StreamPollerOptions, shardId: string, at: string): Promise<boolean> {
  const oldest = await firstRecordOf(opts, shardId, { ShardIteratorType: 'TRIM_HORIZON' });
  if (oldest === undefined) return false; // nothing to read either way: asked again later
  if (BigInt(oldest) > BigInt(at)) return true;
  return (await firstRecordOf(opts, shardId, { ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: at })) !== at;
}

const isTrimmed = (error: unknown) => (error as Error | undefined)?.name === 'TrimmedDataAccessException';

async function pollShard(opts: StreamPollerOptions, shardId: string, closed: boolean, running: () => boolean, retention: PastRetention): Promise<void> {
  const windows = windowSecondsOf(opts.source, opts.tumblingWindowSeconds) ? new ShardWindows(opts, shardId, running) : undefined;
  let iterator: string | undefined;
  /** The checkpoint found past retention: the first read from the oldest record left counts what lay between. */
  let trimmedAfter: string | undefined;
  /** Reading from the oldest record left: a shard past retention, or one with no record left. */
  let atHorizon = false;
  let checkedHorizonAt = 0;
  let idleMs = 20;
  while (running()) {
    try {
      if (!iterator) {
        const from = await iteratorFor(opts, shardId);
        iterator = from.iterator;
        trimmedAfter = from.trimmedAfter ?? trimmedAfter;
        atHorizon ||= from.trimmedAfter !== undefined;
        if (!iterator) break; // closed shard with nothing after the checkpoint
      }
      const out = await getRecords(opts.streams, opts.streamArn, iterator, READ_LIMIT);
      const records = out.records;
      // Counted at the first record read from the horizon (nothing yet: the shard is empty so far).
      if (trimmedAfter !== undefined && (records.length || !out.nextIterator)) {
        const skipped = skippedBetween(trimmedAfter, records[0]?.dynamodb?.SequenceNumber);
        retention.skipped += skipped;
        (opts.log ?? console.error)(pastRetentionLine(opts.source.id, shardId, trimmedAfter, skipped));
        trimmedAfter = undefined;
      }
      const matching = records.filter((r) => passesFilters(opts.source.filters, r));
      const handled =
        !matching.length || (windows ? await windows.deliver(matching) : await deliver(opts, shardId, matching, running, plainBatches(opts, shardId)));
      // Filtered-out records after the last delivered one are done too (Lambda drops them).
      const last = records.at(-1)?.dynamodb?.SequenceNumber;
      if (handled && last && last !== matching.at(-1)?.dynamodb?.SequenceNumber) {
        saveCheckpoint(opts, shardId, { sequenceNumber: last });
      }
      if (!handled) continue; // stopping: the loop ends without moving past undelivered records
      iterator = out.nextIterator;
      // The shard ended: so does its window.
      if (!iterator) {
        if (windows && !(await windows.close())) continue;
        break;
      }
      // A window is over once the stream is read past its end, or — caught up — once its end has passed.
      if (windows && !(await windows.closeIfOver(records.length ? arrivalOf(records.at(-1)!) : undefined))) continue;
      idleMs = records.length ? 20 : Math.min(idleMs * 2, 200);
      // DynamoDB Local may also answer a position in trimmed records with empty pages, for ever: once
      // every record of a shard is trimmed it numbers new ones from the start again, below the
      // checkpoint (seen a month on). Caught up as far as the reads say, ask now and then.
      if (!records.length && Date.now() - checkedHorizonAt >= HORIZON_CHECK_MS) {
        checkedHorizonAt = Date.now();
        const at = checkpoint(opts, shardId).sequenceNumber;
        if (at !== undefined && (await positionLost(opts, shardId, at))) {
          trimmedAfter = at;
          atHorizon = true;
          iterator = await horizonIterator(opts, shardId);
          continue;
        }
      }
      if (!records.length) await sleep(idleMs);
    } catch (error) {
      if (!running()) return;
      if (isTrimmed(error)) {
        // The checkpoint or the iterator points at records trimmed since: go on from the oldest left
        // (DynamoDB Local answers so for a shard with no record left at all, too: wait for one).
        if (!atHorizon) trimmedAfter = checkpoint(opts, shardId).sequenceNumber ?? trimmedAfter;
        if (atHorizon && closed) {
          // A closed shard with no record left has nothing more to give: it is finished, so its children are read.
          if (trimmedAfter !== undefined) (opts.log ?? console.error)(pastRetentionLine(opts.source.id, shardId, trimmedAfter, 0n));
          break;
        }
        atHorizon = true;
        iterator = await horizonIterator(opts, shardId).catch(() => undefined);
        idleMs = Math.min(idleMs * 2, 500);
        await sleep(idleMs);
        continue;
      }
      // An expired iterator is renewed from the checkpoint without a word (Lambda does the same).
      if ((error as Error).name !== 'ExpiredIteratorException') console.error(`stream poller ${opts.source.id} shard ${shardId}:`, (error as Error).message);
      iterator = undefined; // expired or lost: resume from the checkpoint
      await sleep(500);
    }
  }
  if (running()) saveCheckpoint(opts, shardId, { finished: true });
}

/** Merges `change` into the shard's checkpoint (one write: position and open window together). */
function saveCheckpoint(opts: StreamPollerOptions, shardId: string, change: Partial<ShardCheckpoint>): void {
  const next = { ...checkpoint(opts, shardId), ...change };
  if (next.window === undefined) delete next.window;
  opts.checkpoints.set(opts.streamArn, opts.source.id, shardId, next);
}

/** How `deliver` calls the function for a batch, and records that the batch is done. */
interface Batches {
  call(batch: DynamoDBRecord[]): Promise<Outcome>;
  done(seq: string | undefined): void;
}

/** Batches of a source without windows: the event is the records. */
const plainBatches = (opts: StreamPollerOptions, shardId: string): Batches => ({
  call: async (batch) => outcomeOf(batch, await invoke(opts, { Records: batch })),
  done: (seq) => seq && saveCheckpoint(opts, shardId, { sequenceNumber: seq }),
});

/** Hands `records` to the function until every one is handled or given up on (true), or the poller stops (false). */
async function deliver(opts: StreamPollerOptions, shardId: string, records: DynamoDBRecord[], running: () => boolean, batches: Batches): Promise<boolean> {
  const { source } = opts;
  let pending = records;
  let size = Math.min(source.batchSize, records.length);
  let retries = 0;

  // A stop lets the records in hand be delivered (they were read: a stop must not drop them), but
  // retries no failure: what failed stays after the checkpoint for the next start.
  while (pending.length) {
    const batch = pending.slice(0, size);
    const outcome = await batches.call(batch);
    if (outcome === undefined) {
      batches.done(batch.at(-1)!.dynamodb!.SequenceNumber);
      pending = pending.slice(batch.length);
      size = Math.min(source.batchSize, pending.length || source.batchSize);
      retries = 0;
      continue;
    }
    const { failedAt, reported } = outcome;
    // Records before the first failure are done; the retry starts at the failure.
    batches.done(batch[failedAt - 1]?.dynamodb?.SequenceNumber);
    if (!running()) return false;
    if (failedAt > 0) retries = 0; // progress: the retry budget belongs to the new first record
    pending = pending.slice(failedAt);
    const retried = batch.slice(failedAt);
    retries += 1;
    if (retries > source.retryAttempts || tooOld(source, arrivalOf(retried[0]!))) {
      // A reported failure names its record: give up on that one alone; a thrown error, on the
      // part that was attempted.
      const failedBatch = reported ? retried.slice(0, 1) : retried;
      await sendToOnFailure(opts, shardId, rangeOf(failedBatch), retries, { thrown: !reported, tooOld: tooOld(source, arrivalOf(retried[0]!)) });
      batches.done(failedBatch.at(-1)!.dynamodb!.SequenceNumber);
      pending = pending.slice(failedBatch.length);
      size = Math.min(source.batchSize, pending.length || source.batchSize);
      retries = 0;
      continue;
    }
    // Halving the retried part isolates a poison record, so giving up skips as little as possible.
    size = source.bisectBatchOnError && retried.length > 1 ? Math.ceil(retried.length / 2) : retried.length;
    await sleep(retryDelayMs(retries));
  }
  return pending.length === 0;
}

const retryDelayMs = (retries: number) => Math.min(50 * 2 ** retries, 2000) * (0.5 + Math.random() / 2);
const arrivalOf = (r: DynamoDBRecord) => r.dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000;
const tooOld = (source: StreamSourceDef, arrivalSeconds: number) => Date.now() / 1000 - arrivalSeconds > source.maxRecordAgeSeconds;

/** Where a run of records lies in its shard (what an on-failure record describes). */
interface RecordRange {
  readonly first: string;
  readonly last: string;
  readonly count: number;
  readonly firstArrival?: number;
  readonly lastArrival?: number;
}

const rangeOf = (batch: DynamoDBRecord[]): RecordRange => ({
  first: batch[0]!.dynamodb!.SequenceNumber!,
  last: batch.at(-1)!.dynamodb!.SequenceNumber!,
  count: batch.length,
  firstArrival: batch[0]!.dynamodb!.ApproximateCreationDateTime,
  lastArrival: batch.at(-1)!.dynamodb!.ApproximateCreationDateTime,
});

/**
 * One shard's tumbling windows (see the module comment). `deliver` hands records to the open
 * window (closing it first if they belong to a later one); `closeIfOver` closes it once it is
 * over, `close` at once.
 */
class ShardWindows {
  private readonly seconds: number;
  private readonly now: () => number;

  constructor(
    private readonly opts: StreamPollerOptions,
    private readonly shardId: string,
    private readonly running: () => boolean,
  ) {
    this.seconds = windowSecondsOf(opts.source, opts.tumblingWindowSeconds);
    this.now = opts.now ?? Date.now;
  }

  private get open(): OpenWindow | undefined {
    return checkpoint(this.opts, this.shardId).window;
  }

  async deliver(records: DynamoDBRecord[]): Promise<boolean> {
    let rest = records;
    while (rest.length) {
      const startOf = (r: DynamoDBRecord) => windowStartMs(arrivalOf(r), this.seconds);
      // Records of an earlier window than the open one (clock skew) join the open one, as Lambda's arrive in order.
      if (this.open && startOf(rest[0]!) > this.open.startMs && !(await this.close())) return false;
      const window = this.open ?? { startMs: startOf(rest[0]!), state: {}, count: 0 };
      const n = rest.findIndex((r) => startOf(r) > window.startMs);
      const run = n < 0 ? rest : rest.slice(0, n);
      if (!(await deliver(this.opts, this.shardId, run, this.running, this.batchesOf(window)))) return false;
      rest = rest.slice(run.length);
    }
    return true;
  }

  /**
   * Close the open window if the stream was read up to a record of a later window (`readUpTo`, its
   * arrival in epoch seconds), or, with nothing left to read, once the window's end (plus a grace
   * for records still on their way) has passed.
   */
  async closeIfOver(readUpTo?: number): Promise<boolean> {
    const open = this.open;
    if (!open) return true;
    const over =
      readUpTo === undefined ? this.now() >= open.startMs + this.seconds * 1000 + CLOSE_GRACE_MS : windowStartMs(readUpTo, this.seconds) > open.startMs;
    return over ? this.close() : true;
  }

  /** The final invocation of the open window, retried as Lambda does; false if the poller stopped first. */
  async close(early = false): Promise<boolean> {
    const window = this.open;
    if (!window) return true;
    if (window.count === 0) return this.forget(); // every record of it went to the on-failure queue
    for (let retries = 0; this.running();) {
      const response = await invoke(this.opts, this.eventOf(window, [], { final: true, early }));
      if (response.ok && hasState(response.value)) return this.forget();
      retries += 1;
      const old = window.firstArrival !== undefined && tooOld(this.opts.source, window.firstArrival);
      if (retries > this.opts.source.retryAttempts || old) {
        await sendToOnFailure(this.opts, this.shardId, window as RecordRange, retries, { thrown: !response.ok, tooOld: old });
        return this.forget();
      }
      await sleep(retryDelayMs(retries));
    }
    return false;
  }

  private forget(): true {
    saveCheckpoint(this.opts, this.shardId, { window: undefined });
    return true;
  }

  private eventOf(window: OpenWindow, records: DynamoDBRecord[], how: { final: boolean; early?: boolean }): DynamoDBStreamWindowEvent {
    return {
      Records: records,
      window: windowOf(window.startMs, this.seconds),
      state: window.state,
      shardId: this.shardId,
      eventSourceARN: this.opts.streamArn,
      isFinalInvokeForWindow: how.final,
      isWindowTerminatedEarly: how.early ?? false,
    };
  }

  /** Invocations of `window` that carry its state forward; a batch is done once it is in the state. */
  private batchesOf(window: OpenWindow): Batches {
    let current = window;
    return {
      call: async (batch) => {
        // Lambda ends a window whose state is too large; the window goes on with a fresh state.
        if (Buffer.byteLength(JSON.stringify(current.state)) > MAX_STATE_BYTES) {
          if (!(await this.close(true))) return { failedAt: 0, reported: false }; // stopping
          current = { startMs: current.startMs, state: {}, count: 0 };
          saveCheckpoint(this.opts, this.shardId, { window: current });
        }
        const response = await invoke(this.opts, this.eventOf(current, batch, { final: false }));
        if (response.ok && !hasState(response.value)) return { failedAt: 0, reported: false }; // Lambda: no state, a failure
        const outcome = outcomeOf(batch, response);
        const through = outcome === undefined ? batch.length : outcome.failedAt;
        if (through > 0 && response.ok)
          current = { ...advance(current, batch.slice(0, through)), state: (response.value as DynamoDBStreamWindowResponse).state };
        return outcome;
      },
      done: (seq) => seq && saveCheckpoint(this.opts, this.shardId, { sequenceNumber: seq, window: current }),
    };
  }
}

const hasState = (value: unknown) => typeof (value as { state?: unknown } | undefined)?.state === 'object' && (value as { state: unknown }).state !== null;

/** The open window after `records` went into it. */
function advance(window: OpenWindow, records: DynamoDBRecord[]): OpenWindow {
  const r = rangeOf(records);
  return {
    ...window,
    first: window.first ?? r.first,
    last: r.last,
    count: window.count + r.count,
    firstArrival: window.firstArrival ?? r.firstArrival,
    lastArrival: r.lastArrival,
  };
}

/** Undefined on success; else the index of the first failed record and whether the function reported it (batchItemFailures) rather than throwing. */
type Outcome = { failedAt: number; reported: boolean } | undefined;

function outcomeOf(batch: DynamoDBRecord[], response: Invoked): Outcome {
  if (!response.ok) return { failedAt: 0, reported: false };
  const failed = new Set(((response.value as DynamoDBBatchResponse | undefined)?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
  if (failed.size === 0) return undefined;
  const index = batch.findIndex((r) => failed.has(r.dynamodb!.SequenceNumber!));
  // An identifier not in the batch fails the whole batch, as in Lambda.
  return index < 0 ? { failedAt: 0, reported: false } : { failedAt: index, reported: true };
}

type Invoked = { ok: true; value: unknown } | { ok: false };

/** Invokes the function; a thrown error is a failed invocation. */
async function invoke(opts: StreamPollerOptions, event: DynamoDBStreamEvent | DynamoDBStreamWindowEvent): Promise<Invoked> {
  const { source } = opts;
  try {
    return { ok: true, value: opts.invoke ? await opts.invoke(event) : await invokeHandler(source, event) };
  } catch (error) {
    const what =
      'isFinalInvokeForWindow' in event && event.isFinalInvokeForWindow ? 'the final invocation of a window' : `a stream batch of ${event.Records.length}`;
    console.error(`${source.fn} failed ${what}:`, (error as Error).message);
    return { ok: false };
  }
}

async function invokeHandler(source: StreamSourceDef, event: DynamoDBStreamEvent | DynamoDBStreamWindowEvent) {
  const handler = await loadHandler(source.fn);
  const ctx = lambdaContext(source.fn, functions[source.fn].timeoutSeconds * 1000, crypto.randomUUID());
  return (await handler(event, ctx)) as DynamoDBBatchResponse | DynamoDBStreamWindowResponse | undefined;
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
async function sendToOnFailure(opts: StreamPollerOptions, shardId: string, range: RecordRange, attempts: number, how: { thrown: boolean; tooOld: boolean }) {
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
      startSequenceNumber: range.first,
      endSequenceNumber: range.last,
      approximateArrivalOfFirstRecord: arrival(range.firstArrival),
      approximateArrivalOfLastRecord: arrival(range.lastArrival),
      batchSize: range.count,
      streamArn: opts.streamArn,
    },
  };
  await opts.sqs.send(new SendMessageCommand({ QueueUrl: opts.onFailureQueueUrl, MessageBody: JSON.stringify(body) }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
