/**
 * A timed phase of the workload and its figures: `count` operations through the API until every
 * lane has drained, between two rounds of the raw BatchWriteItem ceiling (items of the real shapes
 * and sizes, for users who do not exist, on the same JVM); then `(minimum item writes ÷ raw items/s)
 * ÷ elapsed`, with the answered rate, the calls and the CPU in notes.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { type CapacityTotals, itemWrites } from '../capacity.js';
import { type Delivery, waitForCopies } from '../copies.js';
import { followItems, now, rawRate } from '../fixtures.js';
import { atLeast, type Figure, figureOf } from '../report.js';
import { pool, round } from '../stats.js';
import { meterCpu } from './cpu.js';
import { cpuNote, DRAIN, S, type WorkloadRun } from './run.js';

const fig = figureOf(S);

/** Concurrencies the ceiling is measured at (the faster counts): one fan-out job's lanes, and what overlapping jobs reach. */
const RAW_CONCURRENCIES = [8, 16] as const;

/**
 * `count` operations, `inFlight` at once, until every lane has drained and every delivery they
 * return is in its feeds; `rawItems()` builds a ceiling run's items (fresh keys each time: nothing
 * is overwritten).
 */
export async function timedPhase(
  run: WorkloadRun,
  table: string,
  rawItems: () => Record<string, AttributeValue>[],
  count: number,
  inFlight: number,
  operation: (i: number) => Promise<Delivery | void>,
) {
  const { ctx, say } = run;
  const rates: Record<number, number[]> = {};
  // Alternate the order of the concurrencies between the rounds, so neither always runs first.
  const rawRound = async (pass: number) => {
    for (const c of pass % 2 ? [...RAW_CONCURRENCIES].reverse() : RAW_CONCURRENCIES) (rates[c] ??= []).push(await rawRate(ctx, table, rawItems(), c));
  };
  await rawRound(0);
  const cpu = meterCpu(ctx.stack.dynamoPid);
  const before = ctx.handlerCapacity.snapshot();
  const start = now();
  const deliveries: Delivery[] = [];
  let done = 0;
  await pool(count, inFlight, async (i) => {
    const delivery = await operation(i);
    if (delivery) deliveries.push(delivery);
    if (++done % 500 === 0) say(`${done}/${count}`);
  });
  const answered = now();
  say('waiting for every lane to drain…');
  const { doneAt } = await waitForCopies(ctx, deliveries, DRAIN);
  const measured = { spent: ctx.handlerCapacity.since(before), cpu: cpu.read() };
  await rawRound(1);
  const ceiling = ceilingOf(rates);
  say(`done in ${round((doneAt - start) / 1000, 1)} s; raw ceiling ${Math.round(ceiling.rate)} items/s`);
  return { start, answered, doneAt, ceiling, ...measured };
}

/** The ceiling: the faster concurrency's mean over the rounds. */
function ceilingOf(rates: Record<number, number[]>): { rate: number; note: string } {
  const means = Object.entries(rates).map(([c, r]) => ({ c, mean: r.reduce((a, b) => a + b, 0) / r.length, runs: r }));
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

/** What a phase's figures say besides its timings. */
interface Phase {
  readonly what: string;
  readonly unit: string;
  readonly count: number;
  readonly writes: { total: number; detail: string };
  readonly target: number;
}

const perOp = (t: CapacityTotals, n: number) =>
  Object.entries(t.calls)
    .sort((a, b) => b[1] - a[1])
    .map(([c, k]) => `${c.replace(/Command$/, '')} ${round(k / n, 2)}`)
    .join(', ');

/** Calls per operation by kind (context.ts classifyCalls), so a figure says which reads and writes the calls were. */
const perKind = (t: CapacityTotals, n: number) =>
  Object.entries(t.tags)
    .filter(([, k]) => k.calls / n >= 0.05)
    .sort((a, b) => b[1].calls - a[1].calls)
    .map(([tag, k]) => `${tag} ${round(k.calls / n, 2)}`)
    .join(', ');

export function endToEnd(p: Phase & Awaited<ReturnType<typeof timedPhase>>): Figure[] {
  const elapsed = (p.doneAt - p.start) / 1000;
  const ratio = p.writes.total / p.ceiling.rate / elapsed;
  return [
    fig(`${p.what}: answered (first request → last answer)`, Math.round(p.count / ((p.answered - p.start) / 1000)), `${p.unit}/s`),
    fig(`${p.what}: end to end (first request → every lane drained)`, round(elapsed, 1), 's', {
      note: `${Math.round(p.count / elapsed)} ${p.unit}/s; DynamoDB calls per ${p.unit.replace(/s$/, '')}: ${perOp(p.spent, p.count)} (by kind: ${perKind(p.spent, p.count)}); ${cpuNote(p.cpu)}`,
    }),
    fig(`${p.what}: minimum item writes`, p.writes.total, 'items', {
      note: `${p.writes.detail}; the handlers sent ${itemWrites(p.spent)} (transactions' condition checks included)`,
    }),
    fig(`${p.what}: raw BatchWriteItem ceiling, same item shapes, same JVM`, Math.round(p.ceiling.rate), 'items/s', {
      note: `before / after: ${p.ceiling.note}`,
    }),
    fig(`${p.what}: (minimum item writes ÷ raw items/s) ÷ elapsed`, round(ratio), '×', {
      ...atLeast(ratio, p.target),
      note: `${p.writes.total} ÷ ${Math.round(p.ceiling.rate)} = ${round(p.writes.total / p.ceiling.rate, 1)} s at the raw rate, took ${round(elapsed, 1)} s`,
    }),
  ];
}
