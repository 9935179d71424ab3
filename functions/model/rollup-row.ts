/**
 * Rollup rows in the stats table: one per (series, minute, segment). A segment is a run of one
 * stream shard's records aggregated in one tumbling window and written at once; `segmentId`
 * derives from where it starts (model/rollup-segment.ts), so a retried write of the same segment
 * rewrites the same rows (see services/rollups/apply-windows.ts).
 *   pk = rollup#<series>#<UTC day>#<split>   sk = <minute ISO>#<segmentId>
 * The day in the partition key bounds a partition's size; `split` (0..ROLLUP_PARTITIONS-1, a hash
 * of the segment id) spreads a hot series over several partitions, and reads query them all.
 */
const DAY_MS = 86_400_000;
/** Fixed-width ISO 8601 (`2026-11-22T18:30:00.000Z`): sorts as text the way it sorts as time. */
export const isoMs = (ms: number) => new Date(ms).toISOString();

function splitOf(segmentId: string, partitions: number): number {
  let h = 0;
  for (let i = 0; i < segmentId.length; i++) h = (h * 31 + segmentId.charCodeAt(i)) >>> 0;
  return h % partitions;
}

export const rollupPartition = (series: string, dayStartMs: number, split: number) => `rollup#${series}#${isoMs(dayStartMs).slice(0, 10)}#${split}`;

export function rollupRowKey(series: string, minuteMs: number, segmentId: string, partitions: number) {
  const dayStart = Math.floor(minuteMs / DAY_MS) * DAY_MS;
  return { pk: rollupPartition(series, dayStart, splitOf(segmentId, partitions)), sk: `${isoMs(minuteMs)}#${segmentId}` };
}

/**
 * Access pattern "rows of a series in [fromMs, toMs)" inside one day partition: `sk BETWEEN lo AND
 * hi`. Every sk of minute m is `iso(m)#…`, which sorts after iso(m) and before iso(m + 1 minute).
 */
export const rollupRowRange = (fromMs: number, toMs: number) => ({ lo: isoMs(fromMs), hi: isoMs(toMs) });

const seconds = (ms: number) => Math.ceil(ms / 1000);

/** A rollup row: the aggregate of `n` activities of one segment in one (series, minute). */
export function rollupRowItem(row: {
  series: string;
  minuteMs: number;
  segmentId: string;
  partitions: number;
  value: number;
  n: number;
  expiresAtMs?: number;
}) {
  return {
    ...rollupRowKey(row.series, row.minuteMs, row.segmentId, row.partitions),
    kind: 'rollup',
    series: row.series,
    t: isoMs(row.minuteMs),
    value: row.value,
    n: row.n,
    ...(row.expiresAtMs === undefined ? {} : { expiresAt: seconds(row.expiresAtMs) }),
  };
}

export interface RollupRowValue {
  readonly tMs: number;
  readonly value: number;
  /** TTL in epoch seconds, if the row expires. */
  readonly expiresAt?: number;
}

/** Attributes a series read needs (with `#v` = value). */
export const ROLLUP_ROW_PROJECTION = { ProjectionExpression: 't, #v, expiresAt', ExpressionAttributeNames: { '#v': 'value' } };

const num = (v: unknown) => (v === undefined ? undefined : Number(String(v)));

export const parseRollupRow = (item: Record<string, unknown>): RollupRowValue => ({
  tMs: Date.parse(String(item.t)),
  value: num(item.value)!,
  expiresAt: num(item.expiresAt),
});
