/**
 * Turns stream records into aggregates and aggregates into items, without touching the network
 * (unit-testable).
 *
 * 1. `activityOf` picks the records that count: an INSERT of an original (in a `t#` timeline
 *    partition). Home-feed copies and heads (`f#`) are not activities; MODIFYs (even ones that change nothing) and
 *    REMOVEs (user deletes, TTL deletes — locally "UNKNOWN_TO_SDK_VERSION") are not counted:
 *    rollups count what happened, and deletes do not subtract.
 * 2. `addActivity` folds one into an aggregate: a cell per (series, minute) — a count for its
 *    verb, plus each configured sum/min/max of its attributes — and a count per (actor, window
 *    bucket). What has already expired is left out.
 * 3. `segmentItems` turns an aggregate into the items a segment writes: a rollup row per cell and
 *    an activity entry per (actor, bucket), keyed by the segment.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { type Combine, countSeries, type RollupSpec } from '../../../lib/defs/rollup-spec.js';
import { activityEntryItem } from '../../model/activity-entry.js';
import { rollupRowItem } from '../../model/rollup-row.js';
import { authorOfTimelinePk } from '../../model/timeline-item.js';
import type { StatItem } from '../../stores/stats-store.js';
import { bucketExpiresAt, bucketStart, type WindowConfig } from './windows.js';

/** One counted activity, reduced to what rollups need. */
export interface Activity {
  readonly eventId: string;
  /** The stream record's sequence number. */
  readonly seq: string;
  readonly actor: string;
  readonly verb: string;
  readonly timeMs: number;
  /** Numeric attributes only; others are skipped, not fatal. */
  readonly numbers: Readonly<Record<string, number>>;
}

type Image = NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>;

/** The activity a record counts as, or undefined if the record is not counted. */
export function activityOf(record: DynamoDBRecord): Activity | undefined {
  if (record.eventName !== 'INSERT') return undefined;
  const image: Image | undefined = record.dynamodb?.NewImage;
  const author = authorOfTimelinePk(image?.pk?.S);
  const verb = image?.verb?.S;
  const eventId = record.eventID;
  const seq = record.dynamodb?.SequenceNumber;
  if (!image || !author || !verb || !eventId || !seq) return undefined;
  const timeMs = Date.parse(image.time?.S ?? '');
  const fallback = (record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000;
  const numbers: Record<string, number> = {};
  for (const [key, value] of Object.entries(image.attributes?.M ?? {})) {
    if (value.N === undefined) continue;
    const n = Number(value.N);
    if (Number.isFinite(n)) numbers[key] = n;
  }
  return { eventId, seq, actor: image.actor?.S ?? author, verb, timeMs: Number.isNaN(timeMs) ? fallback : timeMs, numbers };
}

export interface PlanOptions {
  readonly spec: RollupSpec;
  /** What has expired by now is not counted. */
  readonly nowMs: number;
  /** Rollup row lifetime after its minute; undefined = never expires. */
  readonly rollupTtlMs: number | undefined;
  readonly partitions: number;
  readonly window: WindowConfig;
}

export type { StatItem };

const MINUTE_MS = 60_000;

/** A rollup series' value in one minute, over the activities aggregated so far. */
export interface Cell {
  readonly series: string;
  readonly combine: Combine;
  readonly minuteMs: number;
  value: number;
  n: number;
}

/** What a run of activities adds up to: rollup cells and per-(actor, bucket) counts. */
export interface Aggregate {
  /** By `series|minute`. */
  readonly cells: Map<string, Cell>;
  /** By `bucket|actor`. */
  readonly users: Map<string, { readonly userId: string; readonly bucketMs: number; count: number }>;
}

export const emptyAggregate = (): Aggregate => ({ cells: new Map(), users: new Map() });

function addCell(agg: Aggregate, series: string, combine: Combine, minuteMs: number, value: number): void {
  const key = `${series}|${minuteMs}`;
  const have = agg.cells.get(key);
  if (!have) {
    agg.cells.set(key, { series, combine, minuteMs, value, n: 1 });
    return;
  }
  have.value = combine === 'min' ? Math.min(have.value, value) : combine === 'max' ? Math.max(have.value, value) : have.value + value;
  have.n += 1;
}

/** Fold `a` into `agg`, leaving out a minute whose rows have expired and a bucket that has left the window. */
export function addActivity(agg: Aggregate, a: Activity, opts: PlanOptions): void {
  const minute = Math.floor(a.timeMs / MINUTE_MS) * MINUTE_MS;
  if (opts.rollupTtlMs === undefined || minute + opts.rollupTtlMs > opts.nowMs) {
    addCell(agg, countSeries(a.verb), 'sum', minute, 1);
    for (const entry of opts.spec.byEventType.get(a.verb) ?? []) {
      const v = a.numbers[entry.attribute];
      if (v !== undefined) addCell(agg, entry.name, entry.func, minute, v);
    }
  }
  const bucketMs = bucketStart(a.timeMs, opts.window);
  if (bucketExpiresAt(bucketMs, opts.window) <= opts.nowMs) return;
  const key = `${bucketMs}|${a.actor}`;
  const have = agg.users.get(key);
  if (have) have.count += 1;
  else agg.users.set(key, { userId: a.actor, bucketMs, count: 1 });
}

export interface SegmentItems {
  readonly rows: StatItem[];
  readonly entries: (StatItem & { userId: string })[];
}

/**
 * The items a segment writes: one rollup row per cell and one activity entry per (actor, bucket),
 * all keyed by `segmentId`. Depends on nothing but its arguments: writing the same segment again
 * writes the same items.
 */
export function segmentItems(agg: Aggregate, segmentId: string, opts: Pick<PlanOptions, 'rollupTtlMs' | 'partitions' | 'window'>): SegmentItems {
  const rows = [...agg.cells.values()].map((cell) =>
    rollupRowItem({
      series: cell.series,
      minuteMs: cell.minuteMs,
      segmentId,
      partitions: opts.partitions,
      value: cell.value,
      n: cell.n,
      expiresAtMs: opts.rollupTtlMs === undefined ? undefined : cell.minuteMs + opts.rollupTtlMs,
    }),
  );
  const entries = [...agg.users.values()].map((u) =>
    activityEntryItem({ userId: u.userId, bucketStartMs: u.bucketMs, segmentId, count: u.count, expiresAtMs: bucketExpiresAt(u.bucketMs, opts.window) }),
  );
  return { rows, entries };
}
