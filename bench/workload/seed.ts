/**
 * Writing the workload's data without the API, and the raw ceilings the end-to-end figures are
 * divided by. Seeded follows are exactly the items a follow writes (model/follow-edge.ts,
 * model/follow-lists.ts) plus each user's counters on the profile item (its base `followers`
 * count and `following`), like test/support/graph-seed.ts; the raw ceilings write items of the
 * same shapes and sizes to users of the same id length who do not exist, with BatchWriteItem.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { followListPartition } from '../../functions/model/follow-lists.js';
import { profileKey } from '../../functions/model/profile.js';
import type { BenchContext } from '../context.js';
import { followItems as modelItems, now, rawBatchWrite } from '../fixtures.js';
import { pool } from '../stats.js';
import type { Edge } from './graph.js';

/**
 * The three items of one follow (edge and both list entries), in attribute-value form; with
 * `activeUntil`, the followers entry carries that bound, as a reader's stamp leaves it.
 */
const followItems = (follower: string, followee: string, activeUntil?: bigint) =>
  modelItems(follower, followee).map((i) =>
    marshall(activeUntil !== undefined && i.pk === followListPartition('followers', followee) ? { ...i, activeUntil } : i),
  );

/** Writes `edges` as a follow would, then each user's counters; returns the items written. */
export async function seedFollows(
  ctx: BenchContext,
  edges: readonly Edge[],
  idOf: (u: number) => string,
  concurrency = 8,
  activeUntil?: bigint,
): Promise<number> {
  const items = edges.flatMap((e) => followItems(idOf(e.follower), idOf(e.followee), activeUntil));
  await rawBatchWrite(ctx, ctx.stack.tableNames.graph, items, concurrency);
  const counts = new Map<number, { followers: number; following: number }>();
  const at = (u: number) => counts.get(u) ?? (counts.set(u, { followers: 0, following: 0 }), counts.get(u)!);
  for (const e of edges) {
    at(e.followee).followers += 1;
    at(e.follower).following += 1;
  }
  const users = [...counts.entries()];
  await pool(users.length, 16, async (i) => {
    const [u, c] = users[i]!;
    await ctx.doc.send(
      new UpdateCommand({
        TableName: ctx.stack.tableNames.graph,
        Key: profileKey(idOf(u)),
        UpdateExpression: 'ADD followers :a, following :b',
        ExpressionAttributeValues: { ':a': c.followers, ':b': c.following },
      }),
    );
  });
  return items.length + users.length;
}

export interface RawRates {
  /** items/s per BatchWriteItem calls in flight. */
  readonly byConcurrency: Record<number, number[]>;
}

/** Items/s of one raw BatchWriteItem run. */
async function rawRun(ctx: BenchContext, table: string, items: readonly Record<string, AttributeValue>[], concurrency: number): Promise<number> {
  const t0 = now();
  await rawBatchWrite(ctx, table, items, concurrency);
  return items.length / ((now() - t0) / 1000);
}

/** Concurrencies the ceilings are measured at (the faster counts): one fan-out job's lanes, and what overlapping jobs reach. */
export const RAW_CONCURRENCIES = [8, 16] as const;

/**
 * One round of the raw ceiling at each concurrency, adding to `into`. `makeItems()` builds a run's
 * items for users nobody follows (fresh keys each time: nothing is overwritten).
 */
export async function rawRound(
  ctx: BenchContext,
  table: string,
  makeItems: () => Record<string, AttributeValue>[],
  into: RawRates,
  round: number,
): Promise<void> {
  const order = round % 2 ? [...RAW_CONCURRENCIES].reverse() : RAW_CONCURRENCIES;
  for (const c of order) (into.byConcurrency[c] ??= []).push(await rawRun(ctx, table, makeItems(), c));
}

/** The ceiling: the faster concurrency's mean over the rounds. */
export function ceilingOf(rates: RawRates): { rate: number; note: string } {
  const means = Object.entries(rates.byConcurrency).map(([c, r]) => ({ c, mean: r.reduce((a, b) => a + b, 0) / r.length, runs: r }));
  const best = means.reduce((a, b) => (b.mean > a.mean ? b : a));
  return { rate: best.mean, note: means.map((m) => `${m.c} in flight ${m.runs.map(Math.round).join(' / ')}`).join('; ') };
}

/** `count` follow-shaped items (edges and list entries) between fresh users from `nextGhost`. */
export function rawFollowItems(count: number, nextGhost: () => string): Record<string, AttributeValue>[] {
  const out: Record<string, AttributeValue>[] = [];
  while (out.length < count) out.push(...followItems(nextGhost(), nextGhost()));
  return out.slice(0, count);
}

/** `count` copies of a stored copy, re-keyed to fresh owners from `nextGhost` (the real copies' size). */
export function rawCopyItems(copy: Record<string, AttributeValue>, count: number, nextGhost: () => string): Record<string, AttributeValue>[] {
  return Array.from({ length: count }, () => ({ ...copy, pk: { S: homeFeedPartition(nextGhost()) } }));
}
