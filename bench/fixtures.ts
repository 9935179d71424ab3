/**
 * Shared set-up for the scenarios: unique ids per run, follower sets (memoised, so scenarios that
 * run in one process share the 5,000 follows), waiting for the handlers to go quiet, and the raw
 * batch-write loop the baselines use (waiting for a post's copies is copies.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type AttributeValue, BatchWriteItemCommand, type BatchWriteItemCommandOutput, type WriteRequest } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { copyOf } from '../functions/model/feed-copy.js';
import { activeEdgeItem } from '../functions/model/follow-edge.js';
import { followListItem } from '../functions/model/follow-lists.js';
import { profileKey } from '../functions/model/profile.js';
import { newDiscriminator, ticksOfRangeKey } from '../functions/model/range-key.js';
import { type TimelineItem, timelineItem } from '../functions/model/timeline-item.js';
import { isoFromTicks, nowTicks } from '../functions/platform/clock.js';
import { expiresAtFor } from '../functions/services/retention/bounds.js';
import { type HomeFeedPolicy, homeFeedPolicyFromEnv } from '../functions/services/retention/retention-policy.js';
import { fanoutBacklog } from '../local/queue-depth.js';
import type { BenchContext } from './context.js';
import { type Figure, progress } from './report.js';
import { pool } from './stats.js';

export const runId = Date.now().toString(36);

/** A user id unique to this run. */
export const uid = (kind: string, i: number | string = 0) => `bench-${runId}-${kind}-${i}`;

/** A row for a figure that could not be measured in this build, saying why. */
export function notMeasured(scenario: string, metric: string, why: string, target?: string): Figure {
  return { scenario, metric, value: Number.NaN, unit: '', target, met: undefined, note: `not measured: ${why}` };
}

export { sleep };

// ---- follows -------------------------------------------------------------------------------

/** Follows in flight when they go through the HTTP API. */
export const FOLLOW_CONCURRENCY = 16;
/**
 * Larger follower sets are seeded: PUT /following ran at about 10 follows/s on the shared 2-core machine
 * (one transaction + a backfill job each), so 6,000 of them would take minutes of the 10-minute
 * budget. Seeding writes exactly the items `follow()` writes (edge, both list entries, the
 * followee's counter), built with the model (follow-edge.ts, follow-lists.ts, profile.ts) as
 * test/support/graph-seed.ts does, in BatchWriteItem calls.
 */
const HTTP_FOLLOW_MAX = 300;
const followerSets = new Map<string, Promise<string[]>>();

/** How each follower set was made, for the figures' notes. */
export const followMethod = (count: number) =>
  count > HTTP_FOLLOW_MAX ? 'seeded graph items (same items as follow())' : `PUT /following, ${FOLLOW_CONCURRENCY} in flight`;

/** `count` fresh users following `author`; memoised per (author, count) within the process. */
export function followersOf(ctx: BenchContext, author: string, count: number, kind = 'f'): Promise<string[]> {
  const key = `${author}:${count}:${kind}`;
  let set = followerSets.get(key);
  if (!set) {
    set = (async () => {
      const ids = Array.from({ length: count }, (_, i) => uid(`${kind}-${author.split('-').pop()}`, i));
      if (count > HTTP_FOLLOW_MAX) await seedFollows(ctx, ids, author);
      else await follow(ctx, ids, author);
      return ids;
    })();
    followerSets.set(key, set);
  }
  return set;
}

/** The graph items of `followers` following `author`, written in batches (see HTTP_FOLLOW_MAX). */
export async function seedFollows(ctx: BenchContext, followers: readonly string[], author: string): Promise<void> {
  const items = followers.flatMap((f) => followItems(f, author).map((i) => marshall(i)));
  await rawBatchWrite(ctx, ctx.stack.tableNames.graph, items, 4);
  await ctx.doc.send(
    new UpdateCommand({
      TableName: ctx.stack.tableNames.graph,
      Key: profileKey(author),
      UpdateExpression: 'ADD followers :n',
      ExpressionAttributeValues: { ':n': followers.length },
    }),
  );
}

/** The three items a follow writes besides counters: the edge and both list entries (model/follow-edge.ts, follow-lists.ts). */
export function followItems(follower: string, followee: string, ticks = nowTicks()): Record<string, unknown>[] {
  const edge = activeEdgeItem(follower, followee, ticks, false);
  return [edge, followListItem('followers', followee, edge.order, follower), followListItem('following', follower, edge.order, followee)];
}

export async function follow(ctx: BenchContext, followers: readonly string[], author: string): Promise<void> {
  let done = 0;
  await pool(followers.length, FOLLOW_CONCURRENCY, async (i) => {
    const res = await ctx.call('PUT', `/following/${encodeURIComponent(author)}`, followers[i]!);
    if (res.status >= 300) throw new Error(`follow ${followers[i]} → ${author}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    if (++done % 500 === 0) progress(`  following: ${done}/${followers.length}`);
  });
}

/** Milliseconds on the hrtime clock, which the fan-out timings (copies.ts) share. */
export const now = () => Number(process.hrtime.bigint()) / 1e6;

// ---- raw writes ------------------------------------------------------------------------------

/**
 * Writes `items` with BatchWriteItem (25 per request), `concurrency` requests in flight, retrying
 * unprocessed items with backoff: the raw ceiling the scenarios compare against.
 */
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

/** The home-feed policy the stack's handlers run with (FEED_MAX_ITEMS, FEED_MAX_SPAN, FEED_TTL). */
export const stackFeedPolicy = (ctx: BenchContext): HomeFeedPolicy => homeFeedPolicyFromEnv(ctx.stack.env);

const defined = <T extends Record<string, unknown>>(item: T): T => Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)) as T;

/**
 * The original of bench activity `i` by `author`, positioned at `ticks`, exactly as posting builds
 * it (model/timeline-item.ts; TIMELINE_TTL is off in the bench, so no expiresAt).
 */
export function benchOriginal(author: string, ticks: bigint, i: number): TimelineItem {
  return defined(timelineItem(author, benchActivity(i), ticks, newDiscriminator(), isoFromTicks(ticks), undefined));
}

/** `owner`'s home-feed copy of `original`, as the copy writer builds it (model/feed-copy.ts + the stack's FEED_TTL). */
export function benchCopy(ctx: BenchContext, original: TimelineItem, owner: string): Record<string, unknown> {
  const ttl = stackFeedPolicy(ctx).ttlMs;
  return copyOf(original, owner, expiresAtFor(ticksOfRangeKey(original.rk), ttl));
}

/** An item in attribute-value form, for the raw client. */
export const attributes = (item: Record<string, unknown>): Record<string, AttributeValue> => marshall(item, { removeUndefinedValues: true });

/**
 * `count` copies in `owner`'s home feed, of posts by `author` `spacingNs` apart, newest first from
 * `newest`; returns them in feed order (ascending rk = newest first), built with the model.
 */
export function benchFeed(ctx: BenchContext, owner: string, author: string, count: number, newest: bigint, spacingNs = 1_000_000n): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => benchCopy(ctx, benchOriginal(author, newest - BigInt(i) * spacingNs, i), owner));
}

/** Writes model-built items with the raw client (BatchWriteItem, 4 in flight). */
export async function writeModelItems(ctx: BenchContext, table: string, items: readonly Record<string, unknown>[]): Promise<void> {
  await rawBatchWrite(ctx, table, items.map(attributes), 4);
}

/**
 * Waits until the handlers are quiet: fan-out queue empty and no DynamoDB call from any handler
 * (HTTP, outbox, fan-out worker, rollups) for `quietMs`. Stream pollers back off to 200 ms when
 * idle, so 600 ms of silence means their last batch is done.
 */
export async function quiesce(ctx: BenchContext, quietMs = 600, timeoutMs = 180_000): Promise<void> {
  const deadline = now() + timeoutMs;
  const calls = () => Object.values(ctx.handlerCapacity.snapshot().calls).reduce((s, n) => s + n, 0);
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

/** An author with `n` followers, shared by the scenarios of one run (5,000 follows are made once). */
export async function authorWithFollowers(ctx: BenchContext, n: number): Promise<{ author: string; followers: string[] }> {
  const author = uid('author', n);
  return { author, followers: await followersOf(ctx, author, n, 'f') };
}
