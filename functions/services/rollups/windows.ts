/**
 * Recent-activity windows (seed 003's time-windowed list, per user, in DynamoDB): activities are
 * counted in fixed buckets (default 1 h) aligned to the epoch; a user keeps `buckets` of them
 * (default 24). A bucket leaves the window once `buckets` newer buckets have begun: its rows carry
 * that instant as TTL, and reads filter by bucket start because TTL deletes lazily ("filter the
 * leftovers"). Pure functions: the clock is a parameter.
 */
import type { Segments, WindowConfig } from '../../../lib/defs/activity-window.js';

import { readActivityEntries } from '../../stores/stats-store.js';

export type { Segments, WindowConfig };

export type Segment = 'power' | 'casual' | 'inactive';

export interface ActivityWindow {
  readonly buckets: { start: string; count: number }[];
  readonly total: number;
  readonly segment: Segment;
}

export const bucketStart = (timeMs: number, cfg: WindowConfig) => Math.floor(timeMs / cfg.bucketMs) * cfg.bucketMs;

/** When a bucket's rows may go (epoch ms): once `buckets` newer buckets have started. */
export const bucketExpiresAt = (startMs: number, cfg: WindowConfig) => startMs + cfg.buckets * cfg.bucketMs;

/**
 * Number of buckets a requested window spans (rounded up to whole buckets). Throws a message for
 * the caller to turn into a 400 when the window is longer than what is kept.
 */
export function bucketsFor(windowMs: number, cfg: WindowConfig): number {
  const n = Math.ceil(windowMs / cfg.bucketMs);
  if (!(n >= 1 && n <= cfg.buckets)) {
    throw new RangeError(`window must be between ${cfg.bucketMs / 1000}s and ${(cfg.bucketMs * cfg.buckets) / 1000}s`);
  }
  return n;
}

/** Thresholds are for the full window; a shorter window needs proportionally fewer. */
export function segmentOf(total: number, n: number, cfg: WindowConfig, segments: Segments): Segment {
  const scale = n / cfg.buckets;
  if (total >= Math.max(1, Math.ceil(segments.power * scale))) return 'power';
  if (total >= Math.max(1, Math.ceil(segments.casual * scale))) return 'casual';
  return 'inactive';
}

/**
 * The window of the `n` newest buckets (the current one included) at `nowMs`, from bucket rows
 * (several rows per bucket: one per stream chunk). Rows outside the window — expired but not yet
 * deleted, or in the future — are ignored. Buckets come oldest first, empty ones included.
 */
export function summarize(
  rows: readonly { startMs: number; count: number }[],
  nowMs: number,
  n: number,
  cfg: WindowConfig,
  segments: Segments,
): ActivityWindow {
  const current = bucketStart(nowMs, cfg);
  const oldest = current - (n - 1) * cfg.bucketMs;
  const counts = new Map<number, number>();
  for (let s = oldest; s <= current; s += cfg.bucketMs) counts.set(s, 0);
  for (const row of rows) {
    if (counts.has(row.startMs)) counts.set(row.startMs, counts.get(row.startMs)! + row.count);
  }
  const buckets = [...counts].map(([start, count]) => ({ start: new Date(start).toISOString(), count }));
  const total = buckets.reduce((sum, b) => sum + b.count, 0);
  return { buckets, total, segment: segmentOf(total, n, cfg, segments) };
}

/** First bucket start of the `n`-bucket window at `nowMs` (the lower bound of the read). */
export const windowStart = (nowMs: number, n: number, cfg: WindowConfig) => bucketStart(nowMs, cfg) - (n - 1) * cfg.bucketMs;

/** End of the window at `nowMs` (exclusive): the start of the bucket after the current one. */
export const windowEnd = (nowMs: number, cfg: WindowConfig) => bucketStart(nowMs, cfg) + cfg.bucketMs;

/**
 * `userId`'s window of the `n` newest buckets at `nowMs`, read from their activity entries in a
 * bounded range: from the window's first bucket to the end of the current one — entries in later
 * buckets (activities posted with a future `time`) are not read at all.
 */
export async function readActivityWindow(userId: string, nowMs: number, n: number, cfg: WindowConfig, segments: Segments): Promise<ActivityWindow> {
  const rows = await readActivityEntries(userId, windowStart(nowMs, n, cfg), windowEnd(nowMs, cfg));
  return summarize(rows, nowMs, n, cfg, segments);
}
