/**
 * The figures of a timed phase: answered rate, elapsed until every lane drained, minimum item
 * writes, raw ceiling and `(minimum item writes ÷ raw items/s) ÷ elapsed`, with calls and CPU in notes.
 */
import { type CapacityTotals, itemWrites } from '../capacity.js';
import { atLeast, type Figure, figureOf } from '../report.js';
import { round } from '../stats.js';
import type { CpuMeter } from './cpu.js';
import { cpuNote, S } from './run.js';

const fig = figureOf(S);

export interface Phase {
  readonly what: string;
  readonly unit: string;
  readonly count: number;
  readonly writes: { total: number; detail: string };
  readonly start: number;
  readonly answered: number;
  readonly doneAt: number;
  readonly ceiling: { rate: number; note: string };
  readonly target: number;
  /** What the handlers sent DynamoDB during the phase. */
  readonly spent: CapacityTotals;
  readonly cpu: ReturnType<CpuMeter['read']>;
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

export function endToEnd(p: Phase): Figure[] {
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
