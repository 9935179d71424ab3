/** The raw ceilings the workload's end-to-end figures are divided by: items of the real shapes and sizes, for users who do not exist. */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import type { BenchContext } from '../context.js';
import { followItems, rawRate } from '../fixtures.js';

export interface RawRates {
  /** items/s per BatchWriteItem calls in flight. */
  readonly byConcurrency: Record<number, number[]>;
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
  for (const c of order) (into.byConcurrency[c] ??= []).push(await rawRate(ctx, table, makeItems(), c));
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
  while (out.length < count) out.push(...followItems(nextGhost(), nextGhost()).map((i) => marshall(i)));
  return out.slice(0, count);
}

/** `count` copies of a stored copy, re-keyed to fresh owners from `nextGhost` (the real copies' size). */
export function rawCopyItems(copy: Record<string, AttributeValue>, count: number, nextGhost: () => string): Record<string, AttributeValue>[] {
  return Array.from({ length: count }, () => ({ ...copy, pk: { S: homeFeedPartition(nextGhost()) } }));
}
