/**
 * Turns a stream batch into write plans, without touching the network (unit-testable).
 *
 * 1. `activityOf` picks the records that count: an INSERT of an original (in a `t#` timeline
 *    partition). Home-feed copies and heads (`f#`) are not activities; MODIFYs (even ones that change nothing) and
 *    REMOVEs (user deletes, TTL deletes — locally "UNKNOWN_TO_SDK_VERSION") are not counted:
 *    rollups count what happened, and deletes do not subtract.
 * 2. `planChunks` cuts the activities, in stream order, into chunks that each fit one
 *    TransactWriteItems (≤ 100 items): per chunk one claim per activity — which is also the
 *    activity's entry in its actor's recent-activity window — plus one row per (series, minute),
 *    aggregated over the chunk.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { countSeries, type RollupSpec } from '../../../lib/defs/rollup-spec.js';
import { activityEntryItem } from '../../model/activity-entry.js';
import { rollupRowItem } from '../../model/rollup-row.js';
import { authorOfTimelinePk } from '../../model/timeline-item.js';
import { bucketExpiresAt, bucketStart, type WindowConfig } from './windows.js';

/** One counted activity, reduced to what rollups need. */
export interface Activity {
  readonly eventId: string;
  /** The stream record's sequence number: what a partial-batch failure reports. */
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
  readonly nowMs: number;
  /** Rollup row lifetime after its minute; undefined = never expires. */
  readonly rollupTtlMs: number | undefined;
  readonly partitions: number;
  readonly window: WindowConfig;
  /** Items per transaction (DynamoDB's limit is 100). */
  readonly maxItems?: number;
}

export type StatItem = Record<string, string | number> & { pk: string; sk: string };

export interface Chunk {
  /** eventID of the chunk's first activity; part of every row key it writes. */
  readonly id: string;
  readonly activities: readonly Activity[];
  /** Claims = window entries, first (index i = activities[i]), then rows. */
  readonly claims: readonly StatItem[];
  readonly rows: readonly StatItem[];
}

/** A claim must outlive any redelivery of its record: the stream keeps records 24 h. */
export const CLAIM_TTL_MS = 2 * 86_400_000;
const MINUTE_MS = 60_000;

interface Cell {
  series: string;
  combine: 'sum' | 'min' | 'max';
  startMs: number;
  value: number;
  n: number;
  expiresAtMs?: number;
}

/** The rollup cells an activity adds to (key → contribution); empty once its minute has expired. */
function cellsOf(a: Activity, opts: PlanOptions): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  const minute = Math.floor(a.timeMs / MINUTE_MS) * MINUTE_MS;
  const rollupExpires = opts.rollupTtlMs === undefined ? undefined : minute + opts.rollupTtlMs;
  if (rollupExpires === undefined || rollupExpires > opts.nowMs) {
    const count = countSeries(a.verb);
    cells.set(`r|${count}|${minute}`, { series: count, combine: 'sum', startMs: minute, value: 1, n: 1, expiresAtMs: rollupExpires });
    for (const entry of opts.spec.byEventType.get(a.verb) ?? []) {
      const v = a.numbers[entry.attribute];
      if (v === undefined) continue;
      cells.set(`r|${entry.name}|${minute}`, {
        series: entry.name, combine: entry.func, startMs: minute, value: v, n: 1, expiresAtMs: rollupExpires,
      });
    }
  }
  return cells;
}

function merge(into: Cell, add: Cell): void {
  if (into.combine === 'min') into.value = Math.min(into.value, add.value);
  else if (into.combine === 'max') into.value = Math.max(into.value, add.value);
  else into.value += add.value;
  into.n += add.n;
}

/**
 * Cut `activities` (stream order) into chunks of at most `maxItems` transaction items. The cut
 * depends only on the activities given, so the same input always yields the same chunks.
 */
export function planChunks(activities: readonly Activity[], opts: PlanOptions): Chunk[] {
  const maxItems = opts.maxItems ?? 100;
  const chunks: Chunk[] = [];
  let members: Activity[] = [];
  let cells = new Map<string, Cell>();
  const close = () => {
    if (members.length) chunks.push(buildChunk(members, cells, opts));
    members = [];
    cells = new Map();
  };
  for (const a of activities) {
    const own = cellsOf(a, opts);
    if (own.size === 0 && !inWindow(a, opts)) continue; // nothing left to count: no claim either
    const added = [...own.keys()].filter((k) => !cells.has(k)).length;
    if (members.length && members.length + 1 + cells.size + added > maxItems) close();
    members.push(a);
    for (const [key, cell] of own) {
      const have = cells.get(key);
      if (have) merge(have, cell);
      else cells.set(key, { ...cell });
    }
  }
  close();
  return chunks;
}

/** Whether the activity's window bucket is still kept at `nowMs`. */
const inWindow = (a: Activity, opts: PlanOptions) => bucketExpiresAt(bucketStart(a.timeMs, opts.window), opts.window) > opts.nowMs;

function buildChunk(activities: Activity[], cells: Map<string, Cell>, opts: PlanOptions): Chunk {
  const id = activities[0]!.eventId;
  const claimExpires = opts.nowMs + CLAIM_TTL_MS;
  const claims = activities.map((a) => {
    const start = bucketStart(a.timeMs, opts.window);
    // kept while in the window, and at least as long as a redelivery is possible
    const expiresAtMs = Math.max(claimExpires, bucketExpiresAt(start, opts.window));
    return activityEntryItem({ userId: a.actor, bucketStartMs: start, eventId: a.eventId, chunkId: id, expiresAtMs });
  });
  const rows: StatItem[] = [...cells.values()].map((cell) =>
    rollupRowItem({
      series: cell.series,
      minuteMs: cell.startMs,
      chunkId: id,
      partitions: opts.partitions,
      value: cell.value,
      n: cell.n,
      expiresAtMs: cell.expiresAtMs,
    }),
  );
  return { id, activities, claims, rows };
}
