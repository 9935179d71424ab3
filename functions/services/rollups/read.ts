/**
 * Reads of rollup series. Planning a read (which partitions, which sort-key range, which points)
 * and combining its rows are pure; stores/stats-store.ts sends the Queries.
 */
import type { Combine } from '../../../lib/defs/rollup-spec.js';
import { rollupPartition, rollupRowRange, type RollupRowValue } from '../../model/rollup-row.js';
import { type PartitionRead, readRollupRows } from '../../stores/stats-store.js';

export type { PartitionRead };

export type Granularity = 'minute' | 'hour' | 'day';
export const GRANULARITY_MS: Record<Granularity, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
/** At most this many points per read (a day of minutes). */
export const MAX_POINTS = 1440;
const DAY_MS = 86_400_000;

export interface SeriesQuery {
  readonly name: string;
  readonly combine: Combine;
  readonly granularity: Granularity;
  /** Inclusive, aligned down to the granularity. */
  readonly fromMs: number;
  /** Exclusive, aligned up to the granularity. */
  readonly toMs: number;
}

/** Align a request and count its points; a RangeError says why it is out of bounds. */
export function alignQuery(name: string, combine: Combine, granularity: Granularity, fromMs: number, toMs: number): SeriesQuery {
  const g = GRANULARITY_MS[granularity];
  const from = Math.floor(fromMs / g) * g;
  const to = Math.ceil(toMs / g) * g;
  if (to <= from) throw new RangeError('from must be before to');
  const points = (to - from) / g;
  if (points > MAX_POINTS) throw new RangeError(`at most ${MAX_POINTS} ${granularity}s per read, asked for ${points}`);
  return { name, combine, granularity, fromMs: from, toMs: to };
}

/**
 * The day partitions (× splits) a read touches, skipping days whose rows have all expired: rows
 * live `ttlMs` past their minute, so nothing older than now − ttl is returned anyway.
 */
export function partitionReads(q: SeriesQuery, nowMs: number, ttlMs: number | undefined, partitions: number): PartitionRead[] {
  const from = ttlMs === undefined ? q.fromMs : Math.max(q.fromMs, Math.floor((nowMs - ttlMs) / 60_000) * 60_000);
  const reads: PartitionRead[] = [];
  for (let day = Math.floor(from / DAY_MS) * DAY_MS; day < q.toMs; day += DAY_MS) {
    const { lo, hi } = rollupRowRange(Math.max(from, day), Math.min(q.toMs, day + DAY_MS));
    if (lo >= hi) continue;
    for (let split = 0; split < partitions; split++) reads.push({ pk: rollupPartition(q.name, day, split), lo, hi });
  }
  return reads;
}

export type RowValue = RollupRowValue;

/** Combine rows into points (ascending `t`), dropping rows past their TTL not yet deleted. */
export function combinePoints(q: SeriesQuery, rows: readonly RowValue[], nowMs: number): { t: string; value: number }[] {
  const g = GRANULARITY_MS[q.granularity];
  const points = new Map<number, number>();
  for (const row of rows) {
    if (row.expiresAt !== undefined && row.expiresAt * 1000 <= nowMs) continue;
    if (row.tMs < q.fromMs || row.tMs >= q.toMs) continue;
    const t = Math.floor(row.tMs / g) * g;
    const have = points.get(t);
    if (have === undefined) points.set(t, row.value);
    else if (q.combine === 'min') points.set(t, Math.min(have, row.value));
    else if (q.combine === 'max') points.set(t, Math.max(have, row.value));
    else points.set(t, have + row.value);
  }
  return [...points].sort(([a], [b]) => a - b).map(([t, value]) => ({ t: new Date(t).toISOString(), value }));
}

/** A series' points for an aligned query (reads the partitions that can still hold rows). */
export async function readSeriesPoints(q: SeriesQuery, nowMs: number, ttlMs: number | undefined, partitions: number) {
  const rows = await readRollupRows(partitionReads(q, nowMs, ttlMs, partitions));
  return combinePoints(q, rows, nowMs);
}
