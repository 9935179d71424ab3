/**
 * The naive baseline, written only in the bench: seed 002's first `CreatePost`, which writes the
 * post to the author's feed and then to every follower's feed synchronously inside the request
 * (PutItem, Query the follower list, BatchWriteItem 25 at a time, each awaited in turn).
 *
 * It is served by its own small HTTP server on loopback that checks the same JWTs as the local
 * API, so it is timed exactly like `POST /activities` (fetch → response). Its follower list lives
 * in the graph table under a bench-only key (`naive-followers#<author>` / follower id: the
 * baseline's own store, not an entity of our data model — the seed kept followers in its own store
 * too), and its items are built with our model (the original in the author's timeline, a copy per
 * follower), so they have the stored shape and size of ours.
 */
import { createServer, type Server } from 'node:http';
import {
  type AttributeValue,
  BatchWriteItemCommand,
  type BatchWriteItemCommandOutput,
  DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  type QueryCommandOutput,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import type { ActivityInput } from '../functions/model/activity.js';
import { copyOf } from '../functions/model/feed-copy.js';
import { newDiscriminator, ticksOfRangeKey } from '../functions/model/range-key.js';
import { timelineItem } from '../functions/model/timeline-item.js';
import { isoFromTicks, nowTicks } from '../functions/platform/clock.js';
import { expiresAtFor } from '../functions/services/retention/bounds.js';
import { localCredentials, localRegion } from '../local/aws-local.js';
import { createVerifier } from '../local/jwt.js';
import { type BenchContext, timedFetch } from './context.js';
import { attributes, rawBatchWrite, sleep, stackFeedPolicy } from './fixtures.js';

export interface NaiveServer {
  readonly url: string;
  stop(): Promise<void>;
}

const followerPk = (author: string) => `naive-followers#${author}`;

/** Records `followers` as following `author` in the baseline's own follower list. */
export async function naiveFollow(ctx: BenchContext, author: string, followers: readonly string[]): Promise<void> {
  const items = followers.map((f) => ({ pk: { S: followerPk(author) }, sk: { S: f } }));
  await rawBatchWrite(ctx, ctx.stack.tableNames.graph, items, 4);
}

export async function startNaiveServer(ctx: BenchContext): Promise<NaiveServer> {
  const verify = await createVerifier(ctx.keys);
  const feedTtl = stackFeedPolicy(ctx).ttlMs;
  const dynamo = new DynamoDBClient({ region: localRegion, credentials: localCredentials, endpoint: ctx.stack.dynamoEndpoint });
  const feed = ctx.stack.tableNames.feed;
  const graph = ctx.stack.tableNames.graph;

  async function createPost(author: string, body: ActivityInput) {
    const ticks = nowTicks();
    const original = timelineItem(author, body, ticks, newDiscriminator(), isoFromTicks(ticks), undefined);
    const expiresAt = expiresAtFor(ticksOfRangeKey(original.rk), feedTtl);
    // feed to self
    await dynamo.send(new PutItemCommand({ TableName: feed, Item: attributes(original) }));
    // feed to followers, synchronously
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page: QueryCommandOutput = await dynamo.send(
        new QueryCommand({
          TableName: graph,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: followerPk(author) } },
          ExclusiveStartKey: start,
        }),
      );
      const followers = (page.Items ?? []).map((i) => i.sk!.S!);
      for (let i = 0; i < followers.length; i += 25) {
        let pending: WriteRequest[] | undefined = followers.slice(i, i + 25).map((f) => ({ PutRequest: { Item: attributes(copyOf(original, f, expiresAt)) } }));
        for (let attempt = 0; pending?.length; attempt++) {
          if (attempt) await sleep(Math.min(1000, 20 * 2 ** attempt) * Math.random());
          const out: BatchWriteItemCommandOutput = await dynamo.send(new BatchWriteItemCommand({ RequestItems: { [feed]: pending } }));
          pending = out.UnprocessedItems?.[feed];
        }
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return { id: original.id, rangeKey: String(original.rk) };
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    // A listener's returned promise would be dropped: run the async body and let its catch answer.
    req.on(
      'end',
      () =>
        void (async () => {
          const reply = (status: number, body: unknown) => {
            res.writeHead(status, { 'content-type': 'application/json' });
            res.end(JSON.stringify(body));
          };
          try {
            const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
            const claims = token ? await verify(token).catch(() => undefined) : undefined;
            if (!claims?.sub) return reply(401, { message: 'Unauthorized' });
            if (req.method !== 'POST' || req.url !== '/activities') return reply(404, { message: 'Not Found' });
            reply(201, await createPost(claims.sub, JSON.parse(Buffer.concat(chunks).toString('utf8')) as ActivityInput));
          } catch (error) {
            reply(500, { message: (error as Error).message });
          }
        })(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((r) => {
        dynamo.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** POSTs to the baseline as `userId`, timed like BenchContext.call. */
export async function callNaive(ctx: BenchContext, server: NaiveServer, userId: string, json: unknown) {
  return timedFetch(`${server.url}/activities`, 'POST', await ctx.token(userId), json);
}
