/**
 * Scenario 4 — rollups. N originals are written to the feed table; once the live pipeline has
 * settled, the same stretch of the table's stream is read twice:
 *  - raw: a GetRecords drain at the API's maximum page (1,000), nothing else: the ceiling;
 *  - ours: the same drain in pages of the rollup event source's batch size, each converted to
 *    Lambda's record shape, passed through the source's event filters (only timeline INSERTs:
 *    the home-feed copies the fan-out writes are in the same stream) and handed to the rollup
 *    handler in-process, as the event source does (sequential per shard, like Lambda).
 * The handler's claims are keyed by the stream record's eventID, and the live rollup poller has
 * already claimed these records, so each pass gives them fresh eventIDs: the handler then does
 * the full work (claims + rows) instead of skipping already-counted activities.
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { authorOfTimelinePk } from '../../functions/model/timeline-item.js';
import { eventSources, type StreamSourceDef } from '../../lib/defs/index.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { lambdaContext, loadHandler } from '../../local/handlers.js';
import { passesFilters } from '../../local/event-filter.js';
import { toLambdaRecord } from '../../local/stream-records.js';
import type { BenchContext } from '../context.js';
import { fanoutDlqDepth, notMeasured, now, quiesce, runId, uid, writeModelItems } from '../fixtures.js';
import { actorIndexOf, originalFor } from '../rollup-data.js';
import type { Figure } from '../report.js';
import { median, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'rollups';
const ACTIVITIES = 3000;
/** GetRecords' maximum: the raw drain is the ceiling. */
const RAW_LIMIT = 1000;
const REPS = 2;

export const rollups: Scenario = {
  id: 'rollups',
  title: `stream records/s through the rollup handler vs a raw GetRecords drain (${ACTIVITIES} originals)`,
  async run(ctx) {
    const source = eventSources.find((s): s is StreamSourceDef => s.kind === 'stream' && (s.fn as string) === 'rollups');
    if (!source) return [notMeasured(S, 'ours / raw drain', 'the rollup stream consumer is not in this build', '≥ 0.9')];
    const streams = new DynamoDBStreamsClient({ region: localRegion, credentials: localCredentials, endpoint: ctx.stack.dynamoEndpoint });
    try {
      const arn = (await ctx.dynamo.send(new DescribeTableCommand({ TableName: ctx.stack.tableNames.feed }))).Table!.LatestStreamArn!;
      await quiesce(ctx);
      const marks = await markStreamEnd(streams, arn);
      const dlqBefore = await fanoutDlqDepth(ctx);
      const written = await writeOriginals(ctx);
      await quiesce(ctx);
      // The same originals also go through the outbox and the fan-out worker (no followers).
      const deadLettered = (await fanoutDlqDepth(ctx)) - dlqBefore;
      const start = await startPositions(streams, arn, marks);

      const rawRates: number[] = [];
      const ourRates: number[] = [];
      const handlerMs: number[] = [];
      const drainMs: number[] = [];
      let rowsPerBatch = 0;
      let txMs = 0;
      let txItems = 0;
      let records = 0;
      let batches = 0;
      for (let rep = 0; rep < REPS; rep++) {
        const raw = await drain(streams, arn, start, RAW_LIMIT);
        rawRates.push(raw.records / (raw.ms / 1000));
        records = raw.records;
        const before = ctx.handlerCapacity.snapshot();
        let activities = 0;
        let invocations = 0;
        const ours = await drain(streams, arn, start, source.batchSize, async (batch) => {
          activities += batch.filter((r) => r.eventName === 'INSERT' && authorOfTimelinePk(r.dynamodb?.NewImage?.pk?.S) !== undefined).length;
          // The source's event filters apply first, as Lambda (and local/stream-poller.ts) apply them:
          // home-feed copies (f#) and heads never reach the handler.
          const records = batch
            .map((r) => toLambdaRecord(r, arn))
            .filter((r) => passesFilters(source.filters, r))
            .map((r) => withFreshEventId(r, rep));
          if (records.length === 0) return;
          invocations++;
          const t = now();
          const result = (await invoke(source, records)) as { batchItemFailures?: unknown[] } | undefined;
          handlerMs.push(now() - t);
          if (result?.batchItemFailures?.length) throw new Error(`rollup handler reported failures: ${JSON.stringify(result.batchItemFailures).slice(0, 200)}`);
        });
        const spent = ctx.handlerCapacity.since(before);
        ourRates.push(ours.records / (ours.ms / 1000));
        drainMs.push(raw.ms);
        const items = spent.items.TransactWriteItemsCommand ?? spent.items.BatchWriteItemCommand ?? 0;
        batches = invocations;
        txMs = spent.ms.TransactWriteItemsCommand ?? 0;
        txItems = items;
        rowsPerBatch = (items - activities) / invocations; // one claim per activity, the rest are rows
      }
      const ratio = median(ourRates) / median(rawRates);
      const handlerTotal = handlerMs.reduce((a, b) => a + b, 0) / REPS;
      return [
        {
          scenario: S,
          metric: `fan-out jobs dead-lettered for these ${written} originals (a third have an empty attributes map)`,
          value: deadLettered,
          unit: 'msgs',
          target: '0',
          met: deadLettered === 0,
          note: deadLettered
            ? 'the worker throws "No value defined: {}" unmarshalling a stream image with attributes {} (also reproduced through POST /activities with attributes: {}), so those posts are never fanned out'
            : undefined,
        },
        { scenario: S, metric: `raw GetRecords drain (Limit ${RAW_LIMIT})`, value: Math.round(median(rawRates)), unit: 'records/s' },
        { scenario: S, metric: 'through the rollup handler (drain + handler, sequential per shard)', value: Math.round(median(ourRates)), unit: 'records/s' },
        { scenario: S, metric: `rollup handler alone (the ${written} originals the filters pass)`, value: Math.round(written / (handlerTotal / 1000)), unit: 'activities/s' },
        { scenario: S, metric: `rows written per handler call (GetRecords pages of ${source.batchSize}, filtered; besides one claim per activity; 3 verbs, 200 actors, 2 minutes)`, value: round(rowsPerBatch, 1), unit: 'rows' },
        {
          scenario: S,
          metric: 'ours / raw drain',
          value: round(ratio),
          unit: '×',
          target: '≥ 0.9',
          met: ratio >= 0.9,
          note:
            ratio >= 0.9
              ? undefined
              : `per ${records} records (${written} of them originals): GetRecords ${round(median(drainMs), 0)} ms, handler ${round(handlerTotal, 0)} ms over ${batches} calls, of which ${round(txMs, 0)} ms (summed over concurrent calls) waiting on TransactWriteItems of ${txItems} items (a claim per activity + rows): the handler must write ≥ 1 item per activity, the drain only reads`,
        },
      ];
    } finally {
      streams.destroy();
    }
  },
};

/**
 * Writes ACTIVITIES originals from bench/rollup-data.ts (3 verbs, 200 actors, times over the last
 * 2 minutes, as a live stream has them); returns the count.
 */
async function writeOriginals(ctx: BenchContext): Promise<number> {
  const now = Date.now();
  const items = Array.from({ length: ACTIVITIES }, (_, i) => originalFor(i, uid('rollup', actorIndexOf(i)), now, 2));
  await writeModelItems(ctx, ctx.stack.tableNames.feed, items);
  return items.length;
}

/** Where each shard's new records begin: an iterator taken before the write, or a sequence number once seen. */
type Start = Map<string, { iterator?: string; first?: string }>;

async function shardsOf(streams: DynamoDBStreamsClient, arn: string) {
  const out = [];
  let ExclusiveStartShardId: string | undefined;
  do {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn, ExclusiveStartShardId }));
    out.push(...(StreamDescription?.Shards ?? []));
    ExclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
  } while (ExclusiveStartShardId);
  return out;
}

/** A LATEST iterator on every open shard: the drain then starts exactly after what exists now. */
async function markStreamEnd(streams: DynamoDBStreamsClient, arn: string): Promise<Start> {
  const start: Start = new Map();
  for (const shard of await shardsOf(streams, arn)) {
    if (shard.SequenceNumberRange?.EndingSequenceNumber) continue; // closed: nothing new can arrive
    const { ShardIterator } = await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: shard.ShardId!, ShardIteratorType: 'LATEST' }));
    start.set(shard.ShardId!, { iterator: ShardIterator });
  }
  return start;
}

/** Shards opened since the mark are read from their beginning. */
async function startPositions(streams: DynamoDBStreamsClient, arn: string, marks: Start): Promise<Start> {
  for (const shard of await shardsOf(streams, arn)) if (!marks.has(shard.ShardId!) && !shard.SequenceNumberRange?.EndingSequenceNumber) marks.set(shard.ShardId!, {});
  return marks;
}

/**
 * Reads every shard from its start to its end; optionally handles each batch. The first pass
 * uses the marked iterators and records each shard's first sequence number for later passes.
 */
async function drain(
  streams: DynamoDBStreamsClient,
  arn: string,
  start: Start,
  limit: number,
  handle?: (batch: StreamRecord[]) => Promise<void>,
): Promise<{ records: number; ms: number; batches: number }> {
  const t0 = now();
  let records = 0;
  let batches = 0;
  for (const [shardId, pos] of start) {
    let it = pos.first
      ? (await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: shardId, ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: pos.first }))).ShardIterator
      : (pos.iterator ?? (await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator);
    pos.iterator = undefined; // single use
    while (it) {
      const out = await streams.send(new GetRecordsCommand({ ShardIterator: it, Limit: limit }));
      const batch = out.Records ?? [];
      if (!batch.length) break; // caught up: the pipeline was quiet before the drain started
      pos.first ??= batch[0]!.dynamodb!.SequenceNumber;
      records += batch.length;
      batches++;
      if (handle) await handle(batch);
      it = out.NextShardIterator;
    }
  }
  return { records, ms: now() - t0, batches };
}

const withFreshEventId = (r: DynamoDBRecord, rep: number): DynamoDBRecord => ({ ...r, eventID: `${r.eventID}-bench-${runId}-${rep}` });

async function invoke(source: StreamSourceDef, records: DynamoDBRecord[]) {
  const handler = await loadHandler(source.fn);
  return handler({ Records: records }, lambdaContext(source.fn, 60_000, crypto.randomUUID()));
}
