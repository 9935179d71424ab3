/**
 * Fan-out throughput, side by side in one run on one local stack:
 *   raw    — BatchWriteItem of N copy-sized items, 25 per call, 4 calls in flight (the ceiling)
 *   fanout — POST /activities by an author with N followers, through the real pipeline (stream →
 *            outbox → SQS → worker pages of 500 → BatchWriteItem), timed from the first copy write
 *            to the last (worker rate) and from the POST to the last copy (end to end)
 * plus the write/read units the worker consumed per follower copy (ReturnConsumedCapacity).
 * Usage: npx tsx bench/fanout-rate.ts [followers=5000] [feedMaxItems=off]
 * feedMaxItems: retention by count on (e.g. 1000, the default deployment) adds a per-feed counter
 * update per copy written; `off` measures the copies alone.
 */
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { followEdgeKey, followerListKey, followingListKey, followOrder, profileKey } from '../functions/core/keys.js';
import { localCredentials, localRegion } from '../local/aws-local.js';
import { generateLocalKeys, mintToken } from '../local/jwt.js';
import { startLocalStack } from '../local/stack.js';
import { meterCapacity } from './capacity.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
const N = Number(process.argv[2] ?? 5000);
const FEED_MAX_ITEMS = process.argv[3] ?? 'off';
const keys = await generateLocalKeys();
const stack = await startLocalStack({
  port: 0,
  keys,
  sqsRetryDelaySeconds: 1,
  env: { FANOUT_PULL_THRESHOLD: String(N * 10), FEED_MAX_ITEMS },
});
try {
  const cfg = { region: localRegion, credentials: localCredentials, endpoint: stack.dynamoEndpoint };
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient(cfg), { unmarshallOptions: { wrapNumbers: true } });
  const feed = stack.tableNames.feed;
  // The handlers run in this process: meter their client (loaded after the stack set the env).
  const clients = await import('../functions/core/clients.js');
  const meter = meterCapacity(clients.dynamo);
  const copyWrites: number[] = [];
  clients.dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const n = (args.input as { RequestItems?: Record<string, unknown[]> }).RequestItems?.[feed]?.length ?? 0;
      if (context.commandName?.startsWith('BatchWrite') && n) {
        const left = (result.output as { UnprocessedItems?: Record<string, unknown[]> }).UnprocessedItems?.[feed]?.length ?? 0;
        for (let i = 0; i < n - left; i++) copyWrites.push(performance.now());
      }
      return result;
    },
    { step: 'initialize', name: 'benchCopyClock' },
  );

  const writeAll = async (table: string, items: Record<string, unknown>[], inFlight = 4) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < items.length) {
          const start = next;
          next += 25;
          let req = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
          while (req.length) {
            const out = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: req } }));
            req = (out.UnprocessedItems?.[table] ?? []) as typeof req;
          }
        }
      }),
    );
  };
  const post = async (author: string) => {
    const res = await fetch(`${stack.apiUrl}/activities`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await mintToken(keys, author)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ verb: 'post', content: 'x'.repeat(100), attributes: { score: 42 } }),
    });
    if (res.status !== 201) throw new Error(`POST ${res.status}`);
    return (await res.json()) as { rangeKey: string };
  };

  // Followers, written directly (edge + both lists per follow).
  const author = 'bench-author';
  const followers = Array.from({ length: N }, (_, i) => `bench-f${i}`);
  const base = BigInt(Date.now()) * 1_000_000n;
  await writeAll(
    stack.tableNames.graph,
    followers.flatMap((f, i) => {
      const order = followOrder(base + BigInt(i));
      return [
        { ...followEdgeKey(f, author), state: 'active', order, followedAt: String(base + BigInt(i)) },
        { ...followerListKey(author, order, f), userId: f },
        { ...followingListKey(f, order, author), userId: author },
      ];
    }),
  );
  await writeAll(stack.tableNames.graph, [{ ...profileKey(author), followers: N }]);

  // A copy-shaped template: the original of an identical post by a user nobody follows.
  const t = await post('bench-template');
  await new Promise((r) => setTimeout(r, 1000));
  const { Item: template } = await doc.send(new GetCommand({ TableName: feed, Key: { pk: 'bench-template', rk: BigInt(t.rangeKey) } }));
  const { author: _a, ...copyShape } = template!;
  const rawRun = async (tag: string) => {
    const items = followers.map((_, i) => ({ ...copyShape, pk: `raw-${tag}-${i}` }));
    const t0 = performance.now();
    await writeAll(feed, items, 4);
    return N / ((performance.now() - t0) / 1000);
  };

  const raw1 = await rawRun('a');
  copyWrites.length = 0;
  const before = meter.snapshot();
  const t0 = performance.now();
  const p = await post(author);
  while (copyWrites.length < N) {
    if (performance.now() - t0 > 300_000) throw new Error(`only ${copyWrites.length} copies after 300 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const tEnd = copyWrites[N - 1]!;
  // Let the worker finish what trails the last copy (retention counter updates), then read cost.
  for (let last = -1, calls = 0; calls !== last; ) {
    last = calls;
    await new Promise((r) => setTimeout(r, 1500));
    calls = Object.values(meter.since(before).calls).reduce((a, b) => a + b, 0);
  }
  const cost = meter.since(before);
  const workerRate = N / ((tEnd - copyWrites[0]!) / 1000);
  const endToEnd = (tEnd - t0) / 1000;
  const raw2 = await rawRun('b');

  // Spot check: 200 followers each hold exactly the post.
  for (const f of followers.filter((_, i) => i % 25 === 0)) {
    const { Items = [] } = await doc.send(new QueryCommand({ TableName: feed, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': f } }));
    if (Items.length !== 1 || String(Items[0]!.rk) !== p.rangeKey) throw new Error(`follower ${f} has ${Items.length} items`);
  }
  const raw = (raw1 + raw2) / 2;
  const round = (x: number, d = 0) => Number(x.toFixed(d));
  const figures = {
    followers: N,
    feedMaxItems: FEED_MAX_ITEMS,
    rawBatchWriteItemsPerSecond: round(raw),
    rawRuns: [round(raw1), round(raw2)],
    fanoutCopiesPerSecond: round(workerRate),
    fanoutVsRaw: round(workerRate / raw, 2),
    endToEndSeconds: round(endToEnd, 2),
    writeUnitsPerCopy: round(cost.write / N, 3),
    readUnitsPerCopy: round(cost.read / N, 4),
    workerCalls: cost.calls,
  };
  console.log(JSON.stringify(figures, null, 2));
} finally {
  await stack.stop();
}
