/**
 * Rollup stream throughput, side by side in one run on one local stack:
 *   raw     — a bare GetRecords drain of the feed stream (Limit 1000): the ceiling
 *   handler — the same records in batches of the `feedRollups` source's size through the rollups
 *             handler (GetRecords + handler, as the poller does), with rows written per batch
 * Usage: npx tsx bench/rollup-rate.ts [activities=5000] [spreadMinutes=2]
 * spreadMinutes: how far activity times scatter behind "now" (2 ≈ a live stream; 60 = late data).
 */
import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { marshall } from '@aws-sdk/util-dynamodb';
import { eventSources, type StreamSourceDef } from '../lib/defs/index.js';
import { generateLocalKeys } from '../local/jwt.js';
import { streamArnOf } from '../local/provision.js';
import { startLocalStack } from '../local/stack.js';
import { toLambdaRecord } from '../local/stream-records.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
const N = Number(process.argv[2] ?? 5000);
const SPREAD_MIN = Number(process.argv[3] ?? 2);
const source = eventSources.find((s): s is StreamSourceDef => s.kind === 'stream' && s.id === 'feedRollups')!;

const stack = await startLocalStack({
  port: 0,
  keys: await generateLocalKeys(),
  pollers: false,
  env: { ROLLUPS: 'bench_play:sum(score),bench_play:max(score),bench_buy:sum(amount)' },
});
try {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBStreamsClient } = await import('@aws-sdk/client-dynamodb-streams');
  const { localCredentials, localRegion } = await import('../local/aws-local.js');
  const cfg = { region: localRegion, credentials: localCredentials, endpoint: stack.dynamoEndpoint };
  const dynamo = new DynamoDBClient(cfg);
  const streams = new DynamoDBStreamsClient(cfg);
  // Loaded after the stack set the env, like a cold start.
  const { originalFor } = await import('./rollup-rate-data.js');
  const { handler } = await import('../functions/handlers/rollups.js');
  const clients = await import('../functions/core/clients.js');

  // 1. Write N originals: 3 verbs, 200 actors, times over the last SPREAD_MIN minutes.
  const now = Date.now();
  const t0 = performance.now();
  const items = Array.from({ length: N }, (_, i) => marshall(originalFor(i, now, SPREAD_MIN), { removeUndefinedValues: true }));
  const writers = Array.from({ length: 4 }, async (_, w) => {
    for (let i = w * 25; i < items.length; i += 100) {
      let req = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
      while (req.length) {
        const out = await dynamo.send(new BatchWriteItemCommand({ RequestItems: { [stack.tableNames.feed]: req } }));
        req = (out.UnprocessedItems?.[stack.tableNames.feed] ?? []) as typeof req;
      }
    }
  });
  await Promise.all(writers);
  const writeMs = performance.now() - t0;

  const streamArn = await streamArnOf(dynamo, stack.tableNames.feed);
  const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription!.Shards!;
  /** Read every shard from the horizon; `onBatch` gets each page. */
  async function drain(limit: number, onBatch: (records: StreamRecord[]) => Promise<void>): Promise<number> {
    let total = 0;
    for (const shard of shards) {
      let it = (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
      let empty = 0;
      while (it && empty < 2) {
        const out = await streams.send(new GetRecordsCommand({ ShardIterator: it, Limit: limit }));
        const records = out.Records ?? [];
        if (records.length) await onBatch(records);
        total += records.length;
        empty = records.length ? 0 : empty + 1;
        it = out.NextShardIterator;
      }
    }
    return total;
  }

  // 2. Raw GetRecords drain.
  let t = performance.now();
  const rawRecords = await drain(1000, async () => undefined);
  const rawMs = performance.now() - t;

  // 3. The handler over the same stream, counting what it writes.
  let transactions = 0;
  let claims = 0;
  let rows = 0;
  clients.dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand') {
        // Document-client input (not yet marshalled at this step): pk is a plain string.
        const input = args.input as { TransactItems: { Put: { Item: { pk: string } } }[] };
        transactions += 1;
        for (const x of input.TransactItems) (String(x.Put.Item.pk).startsWith('activity#') ? claims++ : rows++);
      }
      return next(args);
    },
    { step: 'initialize', name: 'bench-count' },
  );
  let batches = 0;
  let handlerMs = 0;
  t = performance.now();
  const handled = await drain(source.batchSize, async (records) => {
    batches += 1;
    const h = performance.now();
    const res = await handler({ Records: records.map((r) => toLambdaRecord(r, streamArn)) });
    handlerMs += performance.now() - h;
    if (res.batchItemFailures.length) throw new Error('batch failed');
  });
  const pipelineMs = performance.now() - t;
  if (claims !== N) throw new Error(`expected ${N} activities counted, got ${claims}`);

  const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
  const result = {
    activities: N,
    spreadMinutes: SPREAD_MIN,
    writeItemsPerSec: rate(N, writeMs),
    raw: { records: rawRecords, ms: Math.round(rawMs), recordsPerSec: rate(rawRecords, rawMs) },
    handler: {
      records: handled,
      batchSize: source.batchSize,
      batches,
      ms: Math.round(pipelineMs),
      recordsPerSec: rate(handled, pipelineMs),
      handlerOnlyRecordsPerSec: rate(handled, handlerMs),
      transactions,
      rowsPerBatch: +(rows / batches).toFixed(1),
      claimsPerBatch: +(claims / batches).toFixed(1),
      itemsPerTransaction: +((rows + claims) / transactions).toFixed(1),
    },
  };
  console.log(`raw GetRecords drain:  ${result.raw.recordsPerSec} records/s (${rawRecords} records, ${result.raw.ms} ms)`);
  console.log(`rollups handler:       ${result.handler.recordsPerSec} records/s incl. GetRecords, ${result.handler.handlerOnlyRecordsPerSec} handler only (${batches} batches of ≤${source.batchSize})`);
  console.log(`rows per batch:        ${result.handler.rowsPerBatch} rollup rows + ${result.handler.claimsPerBatch} claims (= window entries), ${transactions} transactions, ${result.handler.itemsPerTransaction} items each`);
  console.log(JSON.stringify(result));
} finally {
  await stack.stop();
}
