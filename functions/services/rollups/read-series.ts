/**
 * Reads of rollup series. Planning a read (which partitions, which sort-key range, which points)
 * and combining its rows are pure; stores/stats-store.ts sends the Queries.
 *
 * Bounded work: a read may not start before the retained past (now − ROLLUP_TTL, aligned down to
 * its granularity: older rows are gone), may not end more than a day ahead of now (aligned up),
 * and may not need more than MAX_PARTITION_QUERIES Queries — one per (UTC day it touches) ×
 * ROLLUP_PARTITIONS. Anything else is a 400 naming the field, before a single Query is sent.
 */
import type { Combine } from '../../../lib/defs/rollup-spec.js';
import { type FieldError, ValidationError } from '../../model/domain-errors.js';
import { rollupPartition, rollupRowRange, type RollupRowValue } from '../../model/rollup-row.js';
import { type PartitionRead, readRollupRows } from '../../stores/stats-store.js';

export type { PartitionRead };

export type Granularity = 'minute' | 'hour' | 'day';
export const GRANULARITY_MS: Record<Granularity, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
/** At most this many points per read (a day of minutes). */
export const MAX_POINTS = 1440;
const DAY_MS = 86_400_000;
/** How far past now a read may end (a client clock ahead of ours, a chart's "rest of today"). */
export const MAX_AHEAD_MS = DAY_MS;
/**
 * At most this many partition Queries per read (days touched × ROLLUP_PARTITIONS). 100 lets one
 * read cover the default retention (90 days: 91 day partitions) at day granularity with one
 * partition; with more partitions the longest read shrinks accordingly (4 partitions: 25 days).
 * 100 Queries, 8 in flight, take ~13 round trips and ≥ 50 read units: a bounded cost per request,
 * where the unbounded reads of before sent 1,438 Queries for a 4-year range.
 */
export const MAX_PARTITION_QUERIES = 100;

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
 * Start of the oldest `granularity` interval that can still hold rows at `nowMs` (rows live `ttlMs`
 * past their minute), or undefined when rows never expire. Reads may start there, not before.
 */
export function retainedFrom(nowMs: number, ttlMs: number | undefined, granularity: Granularity): number | undefined {
  const g = Object.hasOwn(GRANULARITY_MS, granularity) ? GRANULARITY_MS[granularity] : undefined;
  if (ttlMs === undefined || g === undefined) return undefined;
  return Math.floor((nowMs - ttlMs) / g) * g;
}

/**
 * The partition Queries of an aligned read, or a ValidationError (400) saying which bound it
 * breaks: it starts before the retained past, ends more than MAX_AHEAD_MS after now, or needs more
 * than MAX_PARTITION_QUERIES Queries.
 */
export function boundedReads(q: SeriesQuery, nowMs: number, ttlMs: number | undefined, partitions: number): PartitionRead[] {
  const g = GRANULARITY_MS[q.granularity];
  const errors: FieldError[] = [];
  const retained = retainedFrom(nowMs, ttlMs, q.granularity);
  if (retained !== undefined && q.fromMs < retained) {
    errors.push({ field: 'query.from', message: `must not be before ${isoOf(retained)}: rollups are kept ${durationOf(ttlMs!)} (ROLLUP_TTL)` });
  }
  const latest = Math.ceil((nowMs + MAX_AHEAD_MS) / g) * g;
  if (q.toMs > latest) errors.push({ field: 'query.to', message: `must not be after ${isoOf(latest)} (a day ahead of now)` });
  if (errors.length) throw new ValidationError('Rollup range out of bounds.', errors);
  const reads = partitionReads(q, nowMs, ttlMs, partitions);
  if (reads.length > MAX_PARTITION_QUERIES) {
    const days = reads.length / partitions;
    throw new ValidationError('Rollup range needs too many Queries.', [
      {
        field: 'query.from',
        message: `the range touches ${days} UTC days × ${partitions} partition(s) = ${reads.length} Queries; at most ${MAX_PARTITION_QUERIES}: ask for a shorter range`,
      },
    ]);
  }
  return reads;
}

const isoOf = (ms: number) => new Date(ms).toISOString();
const durationOf = (ms: number) =>
  ms % DAY_MS === 0 ? `${ms / DAY_MS}d` : ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`;

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

/**
 * A series' points for an aligned query (reads the partitions that can still hold rows); a
 * ValidationError before any Query when the read is out of bounds (boundedReads).
 */
export async function readSeriesPoints(q: SeriesQuery, nowMs: number, ttlMs: number | undefined, partitions: number) {
  const rows = await readRollupRows(boundedReads(q, nowMs, ttlMs, partitions));
  return combinePoints(q, rows, nowMs);
}
