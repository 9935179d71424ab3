/**
 * Rollups, written once per tumbling window per shard. Throughput: 3,000 originals are written;
 * once the live pipeline settled, the same stretch of stream is read as a raw GetRecords drain
 * (Limit 1,000: the ceiling) and as ours: pages of the source's batch size, filtered as Lambda
 * filters them, handed to the handler in-process as invocations of one window (as a shard of its
 * own), then the final one. Cost: posts at 15/s by power-law actors go through the handler window
 * by window; write units per post against the pricing-rule minimum, and the same when posts trickle in.
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import type { AttributeValue } from '../../functions/model/activity.js';
import { timelineItem } from '../../functions/model/timeline-item.js';
import { isoFromTicks } from '../../functions/platform/clock.js';
import { eventSources, type StreamSourceDef } from '../../lib/defs/index.js';
import {
  type DynamoDBStreamWindowEvent,
  type DynamoDBStreamWindowResponse,
  type WindowStateJson,
  windowOf,
  windowStartMs,
} from '../../lib/defs/stream-window.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { lambdaContext, loadHandler } from '../../local/handlers.js';
import { passesFilters } from '../../local/event-filter.js';
import { getRecords } from '../../local/stream-records.js';
import type { BenchContext } from '../context.js';
import { fanoutDlqDepth } from '../../local/queue-depth.js';
import { now, quiesce, runId, uid, writeModelItems } from '../fixtures.js';
import { byWindow, minimumItems, ratedPosts } from '../rollup-rate.js';
import { atLeast, atMost, type Figure, figureOf } from '../report.js';
import { median, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'rollups';
const fig = figureOf(S);
const ACTIVITIES = 3000;
/** GetRecords' maximum: the raw drain is the ceiling. */
const RAW_LIMIT = 1000;
const REPS = 2;
/** The bench's post rate: the 10 % posts of the workload mix (docs/workload.md) at 150 requests/s. */
const POST_RATE = 15;
const POST_SECONDS = 600;
const POST_USERS = 1000;
/** Lambda polls a shard 4 times a second: at POST_RATE a batch holds about this many records. */
const RECORDS_PER_POLL = Math.ceil(POST_RATE / 4);
const TRICKLE_POSTS = 5;

export const rollups: Scenario = {
  id: 'rollups',
  title: `stream records/s through the rollup handler vs a raw GetRecords drain (${ACTIVITIES} originals); rollup WCU per post at ${POST_RATE} posts/s`,
  async run(ctx) {
    const source = eventSources.find((s): s is StreamSourceDef => s.kind === 'stream' && (s.fn as string) === 'rollups');
    const windowSeconds = source?.tumblingWindowSeconds;
    if (!source || !windowSeconds) throw new Error('no rollup stream source with a tumbling window');
    const streams = new DynamoDBStreamsClient({ region: localRegion, credentials: localCredentials, endpoint: ctx.stack.dynamoEndpoint });
    try {
      const arn = (await ctx.dynamo.send(new DescribeTableCommand({ TableName: ctx.stack.tableNames.feed }))).Table!.LatestStreamArn!;
      await quiesce(ctx);
      const marks = await markStreamEnd(streams, arn);
      const dlqBefore = await fanoutDlqDepth(ctx);
      const written = await writeOriginals(ctx);
      // Longer than the live poller's window: its last window is written before anything is measured.
      await quiesce(ctx, 3000);
      // The same originals also go through the outbox and the fan-out worker (no followers).
      const deadLettered = (await fanoutDlqDepth(ctx)) - dlqBefore;
      // Shards opened since the mark are read from their beginning.
      const start = marks;
      for (const shardId of await openShards(streams, arn)) if (!start.has(shardId)) start.set(shardId, {});

      const rawRates: number[] = [];
      const ourRates: number[] = [];
      const handlerMs: number[] = [];
      const drainMs: number[] = [];
      let itemsPerWindow = 0;
      let records = 0;
      let batches = 0;
      for (let rep = 0; rep < REPS; rep++) {
        const raw = await drain(streams, arn, start, RAW_LIMIT);
        rawRates.push(raw.records / (raw.ms / 1000));
        records = raw.records;
        const before = ctx.handlerCapacity.snapshot();
        let invocations = 0;
        const windows = new Map<string, ReturnType<typeof windowRun>>();
        const timedHandler = async (call: () => Promise<void> | undefined) => {
          const t = now();
          await call();
          handlerMs.push(now() - t);
        };
        const ours = await drain(
          streams,
          arn,
          start,
          source.batchSize,
          async (shardId, batch) => {
            // The source's event filters apply first, as Lambda (and local/stream-poller.ts) apply them:
            // home-feed copies (f#) and heads never reach the handler.
            const matching = batch.filter((r) => passesFilters(source.filters, r));
            if (matching.length === 0) return;
            const run = windows.get(shardId) ?? windowRun(source, arn, `${shardId}-bench-${runId}-${rep}`, windowSeconds, matching[0]!);
            windows.set(shardId, run);
            invocations++;
            await timedHandler(() => run.add(matching));
          },
          (shardId) => timedHandler(() => windows.get(shardId)?.close()),
        );
        const spent = ctx.handlerCapacity.since(before);
        ourRates.push(ours.records / (ours.ms / 1000));
        drainMs.push(raw.ms);
        batches = invocations;
        itemsPerWindow = (spent.items.BatchWriteItemCommand ?? 0) / Math.max(1, windows.size);
      }
      const ratio = median(ourRates) / median(rawRates);
      const handlerTotal = handlerMs.reduce((a, b) => a + b, 0) / REPS;
      return [
        fig(`fan-out jobs dead-lettered for these ${written} originals (a third have an empty attributes map)`, deadLettered, 'msgs', {
          target: '0',
          met: deadLettered === 0,
          note: deadLettered ? 'an empty attributes map once made the worker throw "No value defined: {}" unmarshalling the stream image' : undefined,
        }),
        fig(`raw GetRecords drain (Limit ${RAW_LIMIT})`, Math.round(median(rawRates)), 'records/s'),
        fig('through the rollup handler (drain + handler, sequential per shard)', Math.round(median(ourRates)), 'records/s'),
        fig(
          `rollup handler alone (the ${written} originals the filters pass, ${batches} invocations + the final one)`,
          Math.round(written / (handlerTotal / 1000)),
          'activities/s',
        ),
        fig(
          `items written per window for these ${written} originals (3 verbs, 200 actors, 2 minutes; rows per series and minute + entries per actor and hour)`,
          round(itemsPerWindow, 1),
          'items',
        ),
        fig('ours / raw drain', round(ratio), '×', {
          ...atLeast(ratio, 0.9),
          note:
            ratio >= 0.9
              ? undefined
              : `per ${records} records (${written} of them originals): GetRecords ${round(median(drainMs), 0)} ms, handler ${round(handlerTotal, 0)} ms over ${batches} calls and the final one`,
        }),
        ...(await costAtRate(ctx, source, windowSeconds)),
      ];
    } finally {
      streams.destroy();
    }
  },
};

/**
 * One shard's tumbling window driven through the handler in-process, as Lambda drives it: each
 * batch (`add`) with the state the previous invocation returned, then the final invocation (`close`).
 */
function windowRun(source: StreamSourceDef, eventSourceARN: string, shardId: string, windowSeconds: number, first: DynamoDBRecord) {
  const window = windowOf(windowStartMs(first.dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000, windowSeconds), windowSeconds);
  let state: WindowStateJson = {};
  const invoke = async (Records: DynamoDBRecord[], isFinalInvokeForWindow: boolean): Promise<void> => {
    const event: DynamoDBStreamWindowEvent = { Records, window, state, shardId, eventSourceARN, isFinalInvokeForWindow, isWindowTerminatedEarly: false };
    const handler = await loadHandler(source.fn);
    const response = (await handler(event, lambdaContext(source.fn, 60_000, crypto.randomUUID()))) as DynamoDBStreamWindowResponse;
    if (!response?.state || response.batchItemFailures?.length)
      throw new Error(`rollup handler failed a window invocation: ${JSON.stringify(response).slice(0, 200)}`);
    state = response.state;
  };
  return { add: (records: DynamoDBRecord[]) => invoke(records, false), close: () => invoke([], true) };
}

/**
 * Write units per post at POST_RATE posts/s, and when posts trickle in (one per window): the posts
 * go through the handler window by window; the meter on the handler's client counts what it writes.
 */
async function costAtRate(ctx: BenchContext, source: StreamSourceDef, windowSeconds: number): Promise<Figure[]> {
  const streamArn = `arn:aws:dynamodb:${localRegion}:000000000000:table/bench-${runId}/stream/rate`;
  // Whole windows, ending a window before now (rollup rows and activity buckets of the recent past).
  const end = Math.floor(Date.now() / 1000 / windowSeconds) * windowSeconds - windowSeconds;
  const stats = ctx.stack.tableNames.stats;
  /** Posts at `perSecond` for `seconds` through the handler, window by window, RECORDS_PER_POLL an invocation. */
  const through = async (kind: string, perSecond: number, seconds: number, firstSeq: bigint) => {
    const posts = ratedPosts({ perSecond, seconds, users: POST_USERS, startSeconds: end - seconds, actorOf: (i) => uid(kind, i), streamArn, firstSeq });
    const windows = byWindow(posts, windowSeconds);
    const { spent } = await ctx.handlerCapacity.measure(async () => {
      for (const w of windows) {
        const run = windowRun(source, streamArn, `shardId-${kind}-${runId}`, windowSeconds, w[0]!.record);
        for (let i = 0; i < w.length; i += RECORDS_PER_POLL) await run.add(w.slice(i, i + RECORDS_PER_POLL).map((p) => p.record));
        await run.close();
      }
    });
    const n = posts.length;
    return { n, windows: windows.length, spent, wcu: (spent.tables[stats]?.write ?? 0) / n, minimum: minimumItems(windows) / n };
  };
  const rate = await through('rate', POST_RATE, Math.floor(POST_SECONDS / windowSeconds) * windowSeconds, 10n ** 24n);
  const { n, windows, spent, wcu, minimum } = rate;
  // DynamoDB Local charges nothing for a Query or a key that finds nothing; the rules charge a
  // strongly consistent Query 1 RCU at least, and an eventually consistent key read 0.5 RCU.
  const queries = spent.calls.QueryCommand ?? 0;
  const keys = spent.items.BatchGetItemCommand ?? 0;
  const reads = (queries + 0.5 * keys) / n;
  const { wcu: trickleWcu, minimum: trickleMin } = await through('trickle', 1 / windowSeconds, TRICKLE_POSTS * windowSeconds, 10n ** 25n);
  return [
    fig(
      `rollup WCU per post at ${POST_RATE} posts/s (${n} posts by ${POST_USERS} power-law actors over ${windows} windows of ${windowSeconds} s): meter ${round(wcu, 3)} vs rule minimum ${round(minimum, 3)}`,
      round(wcu, 3),
      'WCU',
      {
        ...atMost(wcu, 0.5),
        note: `minimum: one ≤ 1 KB item per (series, minute) and per (actor, hour) each window touches; ours adds a commit mark per window (${windows} WCU in all); reads by the rules ${round(reads, 3)} RCU per post (${queries} strongly consistent Query for the shard's newest mark, ${keys} keys read for the erase marks of each window's actors); was 8 WCU per post (a transactional claim + rows per activity)`,
      },
    ),
    fig(
      `rollup WCU per post when posts trickle in (one per ${windowSeconds} s window): meter ${round(trickleWcu, 3)} vs rule minimum ${round(trickleMin, 3)}`,
      round(trickleWcu, 3),
      'WCU',
      { note: "a lone post still writes its rows (count, score sum and max), its actor's entry and the commit mark: 1 WCU each, not 2 (no transaction)" },
    ),
  ];
}

const VERBS = ['bench_play', 'bench_buy', 'bench_view'] as const;

/**
 * Writes ACTIVITIES originals as posting writes them: 3 verbs, 200 actors, times spread over the
 * last 2 minutes as a live stream has them (seeded history needs chosen positions).
 */
async function writeOriginals(ctx: BenchContext): Promise<number> {
  const nowMs = Date.now();
  const items = Array.from({ length: ACTIVITIES }, (_, i) => {
    const ticks = BigInt(nowMs - ((i * 7919) % 120_000)) * 1_000_000n + BigInt(i);
    const verb = VERBS[i % 3]!;
    const attributes: Record<string, AttributeValue> = verb === 'bench_play' ? { score: i % 1000 } : verb === 'bench_buy' ? { amount: (i % 50) + 0.5 } : {};
    return timelineItem(uid('rollup', i % 200), { verb, attributes }, ticks, BigInt(i), isoFromTicks(ticks), undefined);
  });
  await writeModelItems(ctx, ctx.stack.tableNames.feed, items);
  return items.length;
}

/** Where each shard's new records begin: a LATEST iterator taken before the write (used once), then the first new record's sequence number. */
type Start = Map<string, { iterator?: string; first?: string }>;

async function openShards(streams: DynamoDBStreamsClient, arn: string): Promise<string[]> {
  const out: string[] = [];
  let ExclusiveStartShardId: string | undefined;
  do {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn, ExclusiveStartShardId }));
    for (const shard of StreamDescription?.Shards ?? []) if (!shard.SequenceNumberRange?.EndingSequenceNumber) out.push(shard.ShardId!);
    ExclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
  } while (ExclusiveStartShardId);
  return out;
}

/** A LATEST iterator on every open shard: the drain then starts exactly after what exists now. */
async function markStreamEnd(streams: DynamoDBStreamsClient, arn: string): Promise<Start> {
  const start: Start = new Map();
  for (const ShardId of await openShards(streams, arn)) {
    const { ShardIterator } = await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId, ShardIteratorType: 'LATEST' }));
    start.set(ShardId, { iterator: ShardIterator });
  }
  return start;
}

/**
 * Reads every shard from its start to its end, handing each batch to `handle`. The first pass
 * uses the marked iterators and records each shard's first new sequence number for later passes;
 * a shard with nothing new is dropped, so no later pass reads it from its horizon.
 */
async function drain(
  streams: DynamoDBStreamsClient,
  arn: string,
  start: Start,
  limit: number,
  handle?: (shardId: string, batch: DynamoDBRecord[]) => Promise<void>,
  shardDone?: (shardId: string) => Promise<void>,
): Promise<{ records: number; ms: number }> {
  const t0 = now();
  let records = 0;
  const iteratorAt = async (ShardId: string, at: { ShardIteratorType: 'TRIM_HORIZON' } | { ShardIteratorType: 'AT_SEQUENCE_NUMBER'; SequenceNumber: string }) =>
    (await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId, ...at }))).ShardIterator;
  for (const [ShardId, pos] of start) {
    let marked = pos.iterator !== undefined;
    let it =
      pos.iterator ??
      (await iteratorAt(ShardId, pos.first ? { ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: pos.first } : { ShardIteratorType: 'TRIM_HORIZON' }));
    pos.iterator = undefined; // single use
    while (it) {
      let out;
      try {
        out = await getRecords(streams, arn, it, limit);
      } catch (error) {
        // DynamoDB Local answers TrimmedDataAccessException for a LATEST iterator taken while its shard
        // held no record (a fresh stack's: this scenario run alone). Everything in that shard is then
        // new, so it is read from its horizon.
        if ((error as Error).name !== 'TrimmedDataAccessException' || !marked) throw error;
        marked = false;
        it = await iteratorAt(ShardId, { ShardIteratorType: 'TRIM_HORIZON' });
        continue;
      }
      marked = false;
      const batch = out.records;
      if (!batch.length) break; // caught up: the pipeline was quiet before the drain started
      pos.first ??= batch[0]!.dynamodb!.SequenceNumber;
      records += batch.length;
      if (handle) await handle(ShardId, batch);
      it = out.nextIterator;
    }
    if (!pos.first) start.delete(ShardId);
    else if (shardDone) await shardDone(ShardId);
  }
  return { records, ms: now() - t0 };
}
