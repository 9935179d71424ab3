/**
 * The naive baseline, written only in the bench: seed 002's first `CreatePost`, which writes the
 * post and then every follower's copy inside the request (PutItem, Query the follower list,
 * BatchWriteItem 25 at a time, each awaited in turn). Its own HTTP server on loopback checks the
 * local API's JWTs, so it is timed like `POST /activities`; its follower list is a bench-only
 * partition of the graph table, and its items are built with our model (same shapes and sizes).
 * Its calls ask for consumed capacity, as the metered handlers' do.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AttributeValue, PutItemCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/client-dynamodb';
import type { ActivityInput } from '../functions/model/activity.js';
import { newDiscriminator } from '../functions/model/range-key.js';
import { timelineItem } from '../functions/model/timeline-item.js';
import { isoFromTicks, nowTicks } from '../functions/platform/clock.js';
import { createVerifier } from '../local/jwt.js';
import { type BenchContext, timedFetch } from './context.js';
import { attributes, benchCopy, rawBatchWrite, writeModelItems } from './fixtures.js';

export interface NaiveServer {
  readonly url: string;
  stop(): Promise<void>;
}

const followerPk = (author: string) => `naive-followers#${author}`;

/** Records `followers` as following `author` in the baseline's own follower list. */
export async function naiveFollow(ctx: BenchContext, author: string, followers: readonly string[]): Promise<void> {
  const entries = followers.map((sk) => ({ pk: followerPk(author), sk }));
  await writeModelItems(ctx, ctx.stack.tableNames.graph, entries);
}

export async function startNaiveServer(ctx: BenchContext): Promise<NaiveServer> {
  const verify = await createVerifier(ctx.keys);
  const { feed, graph } = ctx.stack.tableNames;

  async function createPost(author: string, body: ActivityInput) {
    const ticks = nowTicks();
    const original = timelineItem(author, body, ticks, newDiscriminator(), isoFromTicks(ticks), undefined);
    await ctx.dynamo.send(new PutItemCommand({ TableName: feed, Item: attributes(original), ReturnConsumedCapacity: 'TOTAL' }));
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page: QueryCommandOutput = await ctx.dynamo.send(
        new QueryCommand({
          TableName: graph,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: followerPk(author) } },
          ExclusiveStartKey: start,
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      // One batch at a time, each awaited: the simplest design, as seed 002 writes it.
      const copies = (page.Items ?? []).map((i) => attributes(benchCopy(ctx, original, i.sk!.S!)));
      await rawBatchWrite(ctx, feed, copies, 1);
      start = page.LastEvaluatedKey;
    } while (start);
    return { id: original.id, rangeKey: String(original.rk) };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const answer = async () => {
      const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const claims = token ? await verify(token).catch(() => undefined) : undefined;
      if (!claims?.sub) return reply(401, { message: 'Unauthorized' });
      if (req.method !== 'POST' || req.url !== '/activities') return reply(404, { message: 'Not Found' });
      reply(201, await createPost(claims.sub, JSON.parse(Buffer.concat(chunks).toString('utf8')) as ActivityInput));
    };
    req.on('end', () => void answer().catch((error: Error) => reply(500, { message: error.message })));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** POSTs to the baseline as `userId`, timed like BenchContext.call. */
export async function callNaive(ctx: BenchContext, server: NaiveServer, userId: string, json: unknown) {
  return timedFetch(`${server.url}/activities`, 'POST', await ctx.token(userId), json);
}
