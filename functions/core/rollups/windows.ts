/**
 * Recent-activity windows (seed 003's time-windowed list, per user, in DynamoDB): activities are
 * counted in fixed buckets (default 1 h) aligned to the epoch; a user keeps `buckets` of them
 * (default 24). A bucket leaves the window once `buckets` newer buckets have begun: its rows carry
 * that instant as TTL, and reads filter by bucket start because TTL deletes lazily ("filter the
 * leftovers"). Pure functions: the clock is a parameter.
 */
import { parseDuration } from '../durations.js';

export interface WindowConfig {
  readonly bucketMs: number;
  readonly buckets: number;
}

export interface Segments {
  /** Minimum activities over the full window (bucketMs × buckets) for `power`. */
  readonly power: number;
  /** Minimum for `casual`; fewer is `inactive`. */
  readonly casual: number;
}

export type Segment = 'power' | 'casual' | 'inactive';

export interface ActivityWindow {
  readonly buckets: { start: string; count: number }[];
  readonly total: number;
  readonly segment: Segment;
}

export const bucketStart = (timeMs: number, cfg: WindowConfig) => Math.floor(timeMs / cfg.bucketMs) * cfg.bucketMs;

/** When a bucket's rows may go (epoch ms): once `buckets` newer buckets have started. */
export const bucketExpiresAt = (startMs: number, cfg: WindowConfig) => startMs + cfg.buckets * cfg.bucketMs;

/** Bucket size: a duration of at least one second. */
export function parseBucketSize(raw: string): number {
  const ms = parseDuration(raw);
  if (ms === undefined || ms < 1000) throw new Error(`expected a bucket size of at least 1s, got "${raw}"`);
  return ms;
}

/** `power=50,casual=1` (any order), power > casual ≥ 1. */
export function parseSegments(raw: string): Segments {
  const values: Record<string, number> = {};
  for (const part of raw.split(',')) {
    const match = /^\s*(power|casual)\s*=\s*(\d+)\s*$/i.exec(part);
    if (!match) throw new Error(`expected power=N,casual=M, got entry ${JSON.stringify(part.trim())}`);
    values[match[1]!.toLowerCase()] = Number(match[2]);
  }
  const { power, casual } = values;
  if (power === undefined || casual === undefined) throw new Error(`expected both power=N and casual=M, got "${raw}"`);
  if (casual < 1 || power <= casual) throw new Error(`expected power > casual ≥ 1, got "${raw}"`);
  return { power, casual };
}

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
