/**
 * The local stream poller against DynamoDB Local's real stream: it must behave like Lambda's
 * event source mapping (partial failures retried from the failed record, exhausted batches sent
 * to the on-failure queue and skipped) and resume from its checkpoint after a restart — and, for
 * a source with a tumbling window, carry each invocation's state to the next, end the window with
 * a final invocation that is retried with the same state, and keep an open window's state across
 * a restart. Window tests inject the clock: a window ends when the test says so.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PurgeQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { readFileSync, writeFileSync } from 'node:fs';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { DynamoDBStreamWindowEvent, DynamoDBStreamWindowResponse } from '../../lib/defs/stream-window.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamSourceDef } from '../../lib/defs/index.js';
import { fileCheckpoints } from '../../local/checkpoints.js';
import type { Poller } from '../../local/poller.js';
import { streamArnOf } from '../../local/provision.js';
import { startStreamPoller } from '../../local/stream-poller.js';
import { uid } from '../support/ids.js';
import { doc, dynamo, sqs, stack, streams } from '../support/local.js';
import { eventually } from '../support/wait.js';

const source: StreamSourceDef = {
  kind: 'stream',
  id: 'pollerTest',
  table: 'feed',
  fn: 'outbox',
  batchSize: 10,
  startingPosition: 'TRIM_HORIZON',
  retryAttempts: 2,
  maxRecordAgeSeconds: 3600,
  bisectBatchOnError: true,
  reportBatchItemFailures: true,
  onFailure: 'streamFailures',
  filters: [], // every record (these tests write their own keys)
};

/** Long enough that a test's records (written within a second) share one window, unless the clock says it is over. */
const WINDOW_SECONDS = 900;

const pollers: Poller[] = [];
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((p) => p.stop()));
});

async function start(opts: {
  checkpointFile: string;
  sourceId?: string;
  invoke: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | DynamoDBStreamWindowResponse | void>;
  /** Only records whose pk starts with this (a window sees nothing of other tests). */
  pkPrefix?: string;
  now?: () => number;
}) {
  const poller = startStreamPoller({
    source: {
      ...source,
      id: opts.sourceId ?? source.id,
      ...(opts.pkPrefix ? { filters: [{ dynamodb: { Keys: { pk: { S: [{ prefix: opts.pkPrefix }] } } } }], tumblingWindowSeconds: WINDOW_SECONDS } : {}),
    },
    tumblingWindowSeconds: opts.pkPrefix ? WINDOW_SECONDS : undefined,
    now: opts.now,
    streams,
    sqs,
    streamArn: await streamArnOf(dynamo, stack.tableNames.feed),
    onFailureQueueUrl: stack.queueUrls.streamFailures,
    checkpoints: fileCheckpoints(opts.checkpointFile),
    invoke: opts.invoke,
  });
  pollers.push(poller);
  return poller;
}

const pkOf = (r: DynamoDBRecord) => r.dynamodb?.Keys?.pk?.S;
const put = (pk: string, rk: number) => doc.send(new PutCommand({ TableName: stack.tableNames.feed, Item: { pk, rk: BigInt(rk) } }));

describe('local stream poller', () => {
  it('resumes from its checkpoint after a restart: nothing re-delivered, nothing skipped', async () => {
    const pk = uid('resume');
    const file = join(mkdtempSync(join(tmpdir(), 'tickfeed-cp-')), 'checkpoints.json');
    const seen: number[] = [];
    const record = async (event: DynamoDBStreamEvent) => {
      for (const r of event.Records) if (pkOf(r) === pk) seen.push(Number(r.dynamodb!.Keys!.rk!.N));
    };
    const first = await start({ checkpointFile: file, invoke: record });
    for (let i = 1; i <= 5; i++) await put(pk, i);
    await eventually(async () => seen.length === 5);
    await first.stop();
    pollers.splice(pollers.indexOf(first), 1);

    for (let i = 6; i <= 8; i++) await put(pk, i); // written while no poller runs
    await start({ checkpointFile: file, invoke: record });
    for (let i = 9; i <= 10; i++) await put(pk, i);
    await eventually(async () => seen.length >= 10);
    // A sentinel after the last record, on the same pk: the poller reads the shard in sequence order,
    // so any record it would deliver twice (a stale checkpoint) comes before the sentinel does.
    await put(pk, 11);
    await eventually(async () => seen.includes(11), { what: 'the sentinel record 11' });
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('hands the function at most batchSize records per invocation, however many one read returns', async () => {
    const pk = uid('sized');
    for (let i = 1; i <= 25; i++) await put(pk, i); // written before the poller starts: one read can hold them all
    const sizes: number[] = [];
    const seen: number[] = [];
    await start({
      checkpointFile: join(mkdtempSync(join(tmpdir(), 'tickfeed-cp-')), 'checkpoints.json'),
      sourceId: uid('src'),
      invoke: async (event) => {
        sizes.push(event.Records.length);
        for (const r of event.Records) if (pkOf(r) === pk) seen.push(Number(r.dynamodb!.Keys!.rk!.N));
      },
    });
    await eventually(async () => seen.length >= 25, { timeoutMs: 30_000 });
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(Math.max(...sizes)).toBe(source.batchSize); // full batches from the backlog, none bigger
  });

  it('retries from the first failed record, then sends an exhausted batch to the on-failure queue and moves on', async () => {
    const pk = uid('poison');
    const file = join(mkdtempSync(join(tmpdir(), 'tickfeed-cp-')), 'checkpoints.json');
    await sqs.send(new PurgeQueueCommand({ QueueUrl: stack.queueUrls.streamFailures }));
    const delivered: number[] = [];
    let flakyFailures = 0;
    await start({
      checkpointFile: file,
      sourceId: uid('src'),
      invoke: async (event) => {
        const failures: { itemIdentifier: string }[] = [];
        for (const r of event.Records) {
          if (pkOf(r) !== pk) continue;
          const rk = Number(r.dynamodb!.Keys!.rk!.N);
          const seq = r.dynamodb!.SequenceNumber!;
          if (rk === 2 && flakyFailures < 1) {
            flakyFailures++;
            failures.push({ itemIdentifier: seq }); // fails once, then succeeds
            break;
          }
          if (rk === 4) {
            failures.push({ itemIdentifier: seq }); // poison: always fails
            break;
          }
          delivered.push(rk);
        }
        return { batchItemFailures: failures };
      },
    });
    for (let i = 1; i <= 6; i++) await put(pk, i);
    await eventually(async () => delivered.includes(6), { timeoutMs: 30_000 });
    // rk 1 once; 2 after one retry; 3 once even though its batch was retried; 4 never; 5, 6 once.
    expect(delivered).toEqual([1, 2, 3, 5, 6]);
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: stack.queueUrls.streamFailures, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    const infos = Messages.map((m) => JSON.parse(m.Body!).DDBStreamBatchInfo);
    expect(infos.some((i) => i.batchSize >= 1 && i.startSequenceNumber)).toBe(true);
  });
});

describe('local stream poller: a stop', () => {
  /** The sequence number of the first record of `pk` written by `write`, read off the shard (DynamoDB Local's one open shard). */
  async function firstSeqOf(pk: string, write: () => Promise<unknown>): Promise<{ shardId: string; seq: string }> {
    const arn = await streamArnOf(dynamo, stack.tableNames.feed);
    const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription!.Shards!;
    const open = shards.find((s) => !s.SequenceNumberRange?.EndingSequenceNumber)!;
    await write();
    let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: open.ShardId!, ShardIteratorType: 'TRIM_HORIZON' })))
      .ShardIterator;
    for (let reads = 0; iterator && reads < 1000; reads++) {
      const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      const mine = out.Records?.find((r) => r.dynamodb?.Keys?.pk?.S === pk);
      if (mine) return { shardId: open.ShardId!, seq: mine.dynamodb!.SequenceNumber! };
      iterator = out.NextShardIterator;
    }
    throw new Error(`no stream record of ${pk}`);
  }

  it('delivers the records it has already read before it ends (Ctrl-C loses nothing read)', async () => {
    const pk = uid('stop');
    const sourceId = uid('src');
    const file = join(mkdtempSync(join(tmpdir(), 'tickfeed-cp-')), 'checkpoints.json');
    const items = Array.from({ length: 6 }, (_, i) => ({ PutRequest: { Item: { pk, rk: BigInt(i + 1) } } }));
    const { shardId, seq } = await firstSeqOf(pk, () => doc.send(new BatchWriteCommand({ RequestItems: { [stack.tableNames.feed]: items } })));
    // Start right before the first of them (DynamoDB Local numbers a shard's records one by one):
    // the poller's first read holds all six (one BatchWriteItem, a thousand records a read).
    const arn = await streamArnOf(dynamo, stack.tableNames.feed);
    const before = (BigInt(seq) - 1n).toString().padStart(seq.length, '0');
    writeFileSync(file, JSON.stringify({ [`${arn}|${sourceId}|${shardId}`]: { sequenceNumber: before } }));
    const seen: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let holding = false;
    const poller = startStreamPoller({
      source: { ...source, id: sourceId, batchSize: 2 },
      streams,
      sqs,
      streamArn: arn,
      onFailureQueueUrl: stack.queueUrls.streamFailures,
      checkpoints: fileCheckpoints(file),
      invoke: async (event) => {
        const rks = event.Records.filter((r) => pkOf(r) === pk).map((r) => Number(r.dynamodb!.Keys!.rk!.N));
        if (rks.length && !seen.length) {
          holding = true;
          await held; // the first batch is under way when the stop comes
        }
        seen.push(...rks);
      },
    });
    await eventually(async () => holding, { what: 'the first batch under way' });
    const stopped = poller.stop();
    release();
    await stopped;
    // Three batches of two: the two after the stop was asked for were delivered too, and checkpointed.
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    const saved = Object.values(JSON.parse(readFileSync(file, 'utf8')) as Record<string, { sequenceNumber: string }>)[0]!;
    expect(BigInt(saved.sequenceNumber)).toBeGreaterThanOrEqual(BigInt(seq) + 5n);
  });
});

describe('local stream poller: tumbling windows', () => {
  /** A function that counts records into its state, as a window consumer does; every event is kept. */
  function windowConsumer(opts: { failFinal?: number } = {}) {
    const events: DynamoDBStreamWindowEvent[] = [];
    let finalFailures = 0;
    const invoke = async (event: DynamoDBStreamEvent) => {
      const e = event as DynamoDBStreamWindowEvent;
      events.push(structuredClone(e));
      if (e.isFinalInvokeForWindow) {
        if (finalFailures < (opts.failFinal ?? 0)) {
          finalFailures++;
          throw new Error('final write failed');
        }
        return { state: {}, batchItemFailures: [] };
      }
      const seen = [...((e.state?.rks as number[] | undefined) ?? []), ...e.Records.map((r) => Number(r.dynamodb!.Keys!.rk!.N))];
      return { state: { rks: seen }, batchItemFailures: [] };
    };
    const finals = () => events.filter((e) => e.isFinalInvokeForWindow);
    return { events, invoke, finals };
  }
  const cpFile = () => join(mkdtempSync(join(tmpdir(), 'tickfeed-cp-')), 'checkpoints.json');
  const clock = { ms: Date.now() };
  const now = () => clock.ms;
  /** Past the end of every window opened so far. */
  const endWindows = () => void (clock.ms = Date.now() + 2 * WINDOW_SECONDS * 1000);

  it("carries each invocation's state to the next and ends the window with one final invocation holding it all", async () => {
    clock.ms = Date.now();
    const pk = uid('wstate');
    const c = windowConsumer();
    await start({ checkpointFile: cpFile(), sourceId: uid('src'), pkPrefix: pk, now, invoke: c.invoke });
    for (let i = 1; i <= 4; i++) await put(pk, i);
    await eventually(async () => c.events.flatMap((e) => e.Records).length === 4);
    for (let i = 5; i <= 7; i++) await put(pk, i);
    await eventually(async () => c.events.flatMap((e) => e.Records).length === 7);
    expect(c.finals()).toEqual([]); // the window is not over yet
    endWindows();
    await eventually(async () => c.finals().length >= 1);
    const batches = c.events.filter((e) => !e.isFinalInvokeForWindow);
    expect(batches.length).toBeGreaterThanOrEqual(2);
    expect(batches[0]!.state).toEqual({});
    for (let i = 1; i < batches.length; i++) {
      // Each invocation gets what the previous one of its window returned.
      const before = batches.slice(0, i).flatMap((e) => e.Records.map((r) => Number(r.dynamodb!.Keys!.rk!.N)));
      if (batches[i]!.window.start === batches[i - 1]!.window.start) expect(batches[i]!.state).toEqual({ rks: before });
    }
    const final = c.finals().at(-1)!;
    expect(final.Records).toEqual([]);
    expect(final.shardId).toMatch(/^shardId-/);
    expect(final.eventSourceARN).toContain(stack.tableNames.feed);
    expect(Date.parse(final.window.end) - Date.parse(final.window.start)).toBe(WINDOW_SECONDS * 1000);
    // Every record in exactly one window, each window's final holding its records.
    const counted = c.finals().flatMap((f) => f.state!.rks as number[]);
    expect(counted.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("keeps an open window's state across a restart: the final invocation holds the records of both runs, none twice", async () => {
    clock.ms = Date.now();
    const pk = uid('wrestart');
    const file = cpFile();
    const sourceId = uid('src');
    const c = windowConsumer();
    const first = await start({ checkpointFile: file, sourceId, pkPrefix: pk, now, invoke: c.invoke });
    for (let i = 1; i <= 3; i++) await put(pk, i);
    await eventually(async () => c.events.flatMap((e) => e.Records).length === 3);
    await first.stop();
    pollers.splice(pollers.indexOf(first), 1);
    expect(c.finals()).toEqual([]);

    for (let i = 4; i <= 5; i++) await put(pk, i); // written while no poller runs
    await start({ checkpointFile: file, sourceId, pkPrefix: pk, now, invoke: c.invoke });
    await put(pk, 6);
    await eventually(async () => c.events.flatMap((e) => e.Records).length === 6);
    endWindows();
    await eventually(async () => c.finals().length >= 1);
    // Bounded: duplicates before the final came from the shard loop ahead of it; a second final has no sentinel (a later record would join this window's counts).
    await new Promise((r) => setTimeout(r, 300)); // time for any duplicate to show up
    expect(c.events.flatMap((e) => e.Records.map((r) => Number(r.dynamodb!.Keys!.rk!.N)))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(
      c
        .finals()
        .flatMap((f) => f.state!.rks as number[])
        .sort(),
    ).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("retries a failed final invocation with the same state; once its retries run out, the window's range goes to the on-failure queue", async () => {
    clock.ms = Date.now();
    const flaky = windowConsumer({ failFinal: 2 });
    const pk = uid('wfinal');
    await start({ checkpointFile: cpFile(), sourceId: uid('src'), pkPrefix: pk, now, invoke: flaky.invoke });
    for (let i = 1; i <= 3; i++) await put(pk, i);
    await eventually(async () => flaky.events.flatMap((e) => e.Records).length === 3);
    endWindows();
    await eventually(async () => flaky.finals().length === 3, { timeoutMs: 30_000 });
    expect(new Set(flaky.finals().map((f) => JSON.stringify(f.state))).size).toBe(1); // the same state every time

    clock.ms = Date.now();
    const broken = windowConsumer({ failFinal: Number.POSITIVE_INFINITY });
    const pk2 = uid('wpoison');
    await start({ checkpointFile: cpFile(), sourceId: uid('src'), pkPrefix: pk2, now, invoke: broken.invoke });
    for (let i = 1; i <= 4; i++) await put(pk2, i);
    await eventually(async () => broken.events.flatMap((e) => e.Records).length === 4);
    const seqs = broken.events.flatMap((e) => e.Records.map((r) => r.dynamodb!.SequenceNumber!));
    endWindows();
    const message = await eventually(
      async () => {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: stack.queueUrls.streamFailures, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
        );
        return Messages.map((m) => JSON.parse(m.Body!)).find((b) => b.DDBStreamBatchInfo.startSequenceNumber === seqs[0]);
      },
      { timeoutMs: 30_000 },
    );
    expect(message.DDBStreamBatchInfo).toMatchObject({ batchSize: 4, endSequenceNumber: seqs.at(-1) });
    expect(message.requestContext).toMatchObject({ condition: 'RetryAttemptsExhausted', approximateInvokeCount: source.retryAttempts + 1 });
    expect(broken.finals()).toHaveLength(source.retryAttempts + 1);
  });
});
