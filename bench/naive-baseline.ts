/**
 * The naive baseline, written only in the bench: seed 002's first `CreatePost`, which writes the
 * post to the author's feed and then to every follower's feed synchronously inside the request
 * (PutItem, Query the follower list, BatchWriteItem 25 at a time, each awaited in turn).
 *
 * It is served by its own small HTTP server on loopback that checks the same JWTs as the local
 * API, so it is timed exactly like `POST /activities` (fetch → response). Its follower list lives
 * in the graph table under a bench-only key (`naive-followers#<author>` / follower id) — the seed
 * kept followers in its own store too — and its items have the stored shape of ours, byte for
 * byte the same size.
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
import { nowTicks } from '../functions/core/ticks.js';
import { localCredentials, localRegion } from '../local/aws-local.js';
import { createVerifier } from '../local/jwt.js';
import type { BenchContext } from './context.js';
import { itemLike, rawBatchWrite, sleep, storedShapes } from './fixtures.js';

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
  const shapes = await storedShapes(ctx);
  const dynamo = new DynamoDBClient({ region: localRegion, credentials: localCredentials, endpoint: ctx.stack.dynamoEndpoint });
  const feed = ctx.stack.tableNames.feed;
  const graph = ctx.stack.tableNames.graph;

  async function createPost(author: string, body: Record<string, unknown>) {
    const ticks = nowTicks();
    const copy = itemLike(shapes.copy, author, ticks);
    const original: Record<string, AttributeValue> = { ...itemLike(shapes.original, author, ticks), rk: copy.rk!, actor: { S: author }, author: { S: author } };
    if (typeof body.verb === 'string') original.verb = copy.verb = { S: body.verb };
    // feed to self
    await dynamo.send(new PutItemCommand({ TableName: feed, Item: original }));
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
        let pending: WriteRequest[] | undefined = followers
          .slice(i, i + 25)
          .map((f) => ({ PutRequest: { Item: { ...copy, pk: { S: f }, actor: { S: author } } } }));
        for (let attempt = 0; pending?.length; attempt++) {
          if (attempt) await sleep(Math.min(1000, 20 * 2 ** attempt) * Math.random());
          const out: BatchWriteItemCommandOutput = await dynamo.send(new BatchWriteItemCommand({ RequestItems: { [feed]: pending } }));
          pending = out.UnprocessedItems?.[feed];
        }
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return { id: original.id?.S, rangeKey: original.rk!.N };
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      try {
        const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
        const claims = token ? await verify(token).catch(() => undefined) : undefined;
        if (!claims?.sub) return reply(401, { message: 'Unauthorized' });
        if (req.method !== 'POST' || req.url !== '/activities') return reply(404, { message: 'Not Found' });
        reply(201, await createPost(claims.sub, JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>));
      } catch (error) {
        reply(500, { message: (error as Error).message });
      }
    });
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
  const headers = { authorization: `Bearer ${await ctx.token(userId)}`, 'content-type': 'application/json' };
  const start = process.hrtime.bigint();
  const res = await fetch(`${server.url}/activities`, { method: 'POST', headers, body: JSON.stringify(json) });
  const text = await res.text();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { status: res.status, body: text ? JSON.parse(text) : undefined, ms };
}
