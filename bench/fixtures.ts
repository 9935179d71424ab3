/**
 * Shared set-up for the scenarios: ids unique to the run, follows (seeded or through the API),
 * posting, model-built items written raw, waiting for the handlers to go quiet, and the raw
 * batch-write loop the baselines use (waiting for a post's copies is copies.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type AttributeValue,
  BatchWriteItemCommand,
  type BatchWriteItemCommandOutput,
  GetItemCommand,
  QueryCommand,
  type QueryCommandInput,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { copyOf } from '../functions/model/feed-copy.js';
import { feedHeadKey } from '../functions/model/feed-head.js';
import { activeEdgeItem } from '../functions/model/follow-edge.js';
import { followListItem } from '../functions/model/follow-lists.js';
import { profileKey } from '../functions/model/profile.js';
import { newDiscriminator, ticksOfRangeKey } from '../functions/model/range-key.js';
import { type TimelineItem, timelineItem } from '../functions/model/timeline-item.js';
import { isoFromTicks, nowTicks } from '../functions/platform/clock.js';
import { expiresAtFor } from '../functions/services/retention/bounds.js';
import { type HomeFeedPolicy, homeFeedPolicyFromEnv } from '../functions/services/retention/retention-policy.js';
import { fanoutBacklog } from '../local/queue-depth.js';
import { callCount } from './capacity.js';
import type { BenchContext } from './context.js';
import { progress } from './report.js';
import { pool } from './stats.js';

export { sleep };

export const runId = Date.now().toString(36);

/** A user id unique to this run. */
export const uid = (kind: string, i: number | string = 0) => `bench-${runId}-${kind}-${i}`;

/** A feed id unique to this run (the API's id alphabet, at most 60 characters). */
export const feedIdOf = (kind: string, name: string) =>
  uid(kind, name)
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '-')
    .slice(-60);

/** Milliseconds on the hrtime clock, which the fan-out timings (copies.ts) share. */
export const now = () => Number(process.hrtime.bigint()) / 1e6;

// ---- follows -------------------------------------------------------------------------------

/** A follow to seed; `activeUntil` is the reader's bound a stamp leaves on the followers entry. */
export interface SeededFollow {
  readonly follower: string;
  readonly followee: string;
  readonly activeUntil?: bigint;
}

/** Larger follower sets are seeded (PUT /following runs at tens of follows/s here: a transaction and a job each). */
const HTTP_FOLLOW_MAX = 300;
const madeFollows = new Map<string, Promise<unknown>>();

/** `${prefix}author-${n}` with `n` fresh followers, made once per run and shared by the scenarios (5,000 follows are made once). */
export async function authorWithFollowers(ctx: BenchContext, n: number, prefix = ''): Promise<{ author: string; followers: string[] }> {
  const author = uid(`${prefix}author`, n);
  const followers = Array.from({ length: n }, (_, i) => uid(`${prefix}f-${n}`, i));
  const follows = followers.map((follower) => ({ follower, followee: author }));
  if (!madeFollows.has(author)) madeFollows.set(author, n > HTTP_FOLLOW_MAX ? seedFollows(ctx, follows) : followAll(ctx, follows));
  await madeFollows.get(author);
  return { author, followers };
}

/** The three items a follow writes besides counters: the edge and both list entries (model/follow-edge.ts, follow-lists.ts). */
export function followItems(follower: string, followee: string, ticks = nowTicks()): Record<string, unknown>[] {
  const edge = activeEdgeItem(follower, followee, ticks, false);
  return [edge, followListItem('followers', followee, edge.order, follower), followListItem('following', follower, edge.order, followee)];
}

/** Writes `follows` as a follow would (raw BatchWriteItem), then each user's counts; returns the items written. */
export async function seedFollows(ctx: BenchContext, follows: readonly SeededFollow[], concurrency = 8): Promise<number> {
  const items = follows.flatMap(({ follower, followee, activeUntil }) => {
    const [edge, entry, following] = followItems(follower, followee);
    return [edge!, activeUntil === undefined ? entry! : { ...entry!, activeUntil }, following!].map((i) => marshall(i));
  });
  await rawBatchWrite(ctx, ctx.stack.tableNames.graph, items, concurrency);
  const counts = new Map<string, { followers: number; following: number }>();
  const at = (u: string) => counts.get(u) ?? counts.set(u, { followers: 0, following: 0 }).get(u)!;
  for (const f of follows) {
    at(f.followee).followers += 1;
    at(f.follower).following += 1;
  }
  const users = [...counts.entries()];
  await pool(users.length, 16, async (i) => {
    const [u, c] = users[i]!;
    await ctx.doc.send(
      new UpdateCommand({
        TableName: ctx.stack.tableNames.graph,
        Key: profileKey(u),
        UpdateExpression: 'ADD followers :a, following :b',
        ExpressionAttributeValues: { ':a': c.followers, ':b': c.following },
      }),
    );
  });
  return items.length + users.length;
}

/** PUT /following for each follow, 16 in flight, each answered 204; returns follows/s. */
export async function followAll(ctx: BenchContext, follows: readonly SeededFollow[]): Promise<number> {
  const t0 = now();
  let done = 0;
  await pool(follows.length, 16, async (i) => {
    const { follower, followee } = follows[i]!;
    const res = await ctx.call('PUT', `/following/${encodeURIComponent(followee)}`, follower);
    if (res.status !== 204) throw new Error(`follow ${follower} → ${followee}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    if (++done % 500 === 0) progress(`  following: ${done}/${follows.length}`);
  });
  return follows.length / ((now() - t0) / 1000);
}

/** Sets `reader`'s head bound, as a finished stamp leaves it. */
export const setHeadBound = (ctx: BenchContext, reader: string, until: bigint) =>
  ctx.doc.send(
    new UpdateCommand({
      TableName: ctx.stack.tableNames.feed,
      Key: feedHeadKey(reader),
      UpdateExpression: 'SET activeUntil = :u',
      ExpressionAttributeValues: { ':u': until },
    }),
  );

// ---- raw writes ------------------------------------------------------------------------------

/** Writes `items` with BatchWriteItem (25 a call, `concurrency` calls in flight, unprocessed items retried): the raw ceiling. */
export async function rawBatchWrite(ctx: BenchContext, table: string, items: readonly Record<string, AttributeValue>[], concurrency: number): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })));
  await pool(batches.length, concurrency, async (b) => {
    let pending: WriteRequest[] | undefined = batches[b];
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt > 10) throw new Error('raw batch write: unprocessed items after 10 retries');
      if (attempt) await sleep(Math.min(1000, 20 * 2 ** attempt) * Math.random());
      // Metered like the handlers' calls (ReturnConsumedCapacity makes DynamoDB Local slower per item).
      const out: BatchWriteItemCommandOutput = await ctx.dynamo.send(
        new BatchWriteItemCommand({ RequestItems: { [table]: pending }, ReturnConsumedCapacity: 'TOTAL' }),
      );
      pending = out.UnprocessedItems?.[table];
    }
  });
}

/** Items/s of `items` written raw at `concurrency`. */
export async function rawRate(ctx: BenchContext, table: string, items: readonly Record<string, AttributeValue>[], concurrency: number): Promise<number> {
  const t0 = now();
  await rawBatchWrite(ctx, table, items, concurrency);
  return items.length / ((now() - t0) / 1000);
}

/** An item in attribute-value form, for the raw client. */
export const attributes = (item: Record<string, unknown>): Record<string, AttributeValue> => marshall(item, { removeUndefinedValues: true });

/**
 * A Query on the raw client (not the handlers' meter), `values` marshalled: every page, or with a
 * `Limit` one page; the items in attribute-value form (for their sizes) and the read units reported.
 */
export async function rawQuery(ctx: BenchContext, input: Omit<QueryCommandInput, 'ExpressionAttributeValues'> & { values: Record<string, unknown> }) {
  const { values, ...query } = input;
  const items: Record<string, AttributeValue>[] = [];
  let read = 0;
  let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
  do {
    const out = await ctx.dynamo.send(
      new QueryCommand({ ...query, ExpressionAttributeValues: attributes(values), ExclusiveStartKey, ReturnConsumedCapacity: 'TOTAL' }),
    );
    items.push(...(out.Items ?? []));
    read += out.ConsumedCapacity?.CapacityUnits ?? 0;
    ExclusiveStartKey = query.Limit === undefined ? out.LastEvaluatedKey : undefined;
  } while (ExclusiveStartKey);
  return { items, read };
}

/** The item stored at `key`, in attribute-value form (raw client, strongly consistent); throws when there is none. */
export async function storedItem(ctx: BenchContext, table: string, key: Record<string, unknown>): Promise<Record<string, AttributeValue>> {
  const { Item } = await ctx.dynamo.send(new GetItemCommand({ TableName: table, Key: attributes(key), ConsistentRead: true }));
  if (!Item) throw new Error(`no item in ${table} at ${String(key.pk)} / ${String(key.rk ?? key.sk)}`);
  return Item;
}

/** Writes model-built items with the raw client (BatchWriteItem, 4 in flight). */
export async function writeModelItems(ctx: BenchContext, table: string, items: readonly Record<string, unknown>[]): Promise<void> {
  await rawBatchWrite(ctx, table, items.map(attributes), 4);
}

// ---- activities and their stored shapes ------------------------------------------------------

/** The activity every scenario posts: a representative size (~300 bytes stored). */
export function benchActivity(i: number) {
  return {
    verb: 'post',
    object: `note:${runId}-${i}`,
    content: `bench post ${i}: ${'lorem ipsum dolor sit amet '.repeat(4)}`.slice(0, 120),
    attributes: { score: (i * 37) % 1000 },
  };
}

/** POST /activities as `author`, answered 201: the new activity's id and range key, and the request's ms. */
export async function postActivity(ctx: BenchContext, author: string, body: unknown): Promise<{ id: string; rangeKey: string; ms: number }> {
  const res = await ctx.call('POST', '/activities', author, body);
  if (res.status !== 201) throw new Error(`POST /activities as ${author}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  return { id: String(res.body.id), rangeKey: String(res.body.rangeKey), ms: res.ms };
}

/** The home-feed policy the stack's handlers run with (FEED_MAX_ITEMS, FEED_MAX_SPAN, FEED_TTL). */
export const stackFeedPolicy = (ctx: BenchContext): HomeFeedPolicy => homeFeedPolicyFromEnv(ctx.stack.env);

/** The original of bench activity `i` by `author` at `ticks`, as posting builds it (TIMELINE_TTL is off in the bench). */
export function benchOriginal(author: string, ticks: bigint, i: number): TimelineItem {
  const item = timelineItem(author, benchActivity(i), ticks, newDiscriminator(), isoFromTicks(ticks), undefined);
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)) as TimelineItem;
}

/** `owner`'s home-feed copy of `original`, as the copy writer builds it (with the stack's FEED_TTL). */
export function benchCopy(ctx: BenchContext, original: TimelineItem, owner: string): Record<string, unknown> {
  return copyOf(original, owner, expiresAtFor(ticksOfRangeKey(original.rk), stackFeedPolicy(ctx).ttlMs));
}

/** `count` copies in `owner`'s feed of posts by `author` 1 ms apart, the newest (at `newest`) first. */
export function benchFeed(ctx: BenchContext, owner: string, author: string, count: number, newest: bigint): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => benchCopy(ctx, benchOriginal(author, newest - BigInt(i) * 1_000_000n, i), owner));
}

/**
 * Waits until the handlers are quiet: fan-out queue empty and no DynamoDB call from any handler
 * for `quietMs` (idle stream pollers back off to 200 ms, so 600 ms of silence means they are done).
 */
export async function quiesce(ctx: BenchContext, quietMs = 600, timeoutMs = 180_000): Promise<void> {
  const deadline = now() + timeoutMs;
  const calls = () => callCount(ctx.handlerCapacity.snapshot());
  let last = calls();
  let quietSince = now();
  while (now() < deadline) {
    await sleep(100);
    const c = calls();
    if (c !== last || (await fanoutBacklog(ctx)) > 0) {
      last = c;
      quietSince = now();
    } else if (now() - quietSince >= quietMs) return;
  }
  throw new Error('handlers did not go quiet');
}
