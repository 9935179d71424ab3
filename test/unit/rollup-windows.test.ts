/** Activity windows with a fake clock: bucketing, expiry (TTL and read filter), segments. */
import { describe, expect, it } from 'vitest';
import { bucketExpiresAt, bucketStart, bucketsFor, summarize, windowStart } from '../../functions/services/rollups/windows.js';
import { parseBucketSize, parseSegments } from '../../lib/defs/activity-window.js';

const H = 3_600_000;
const cfg = { bucketMs: H, buckets: 24 };
const segments = { power: 48, casual: 2 };
const t0 = Date.parse('2026-11-22T10:00:00.000Z');

describe('bucketing', () => {
  it('puts an activity in the bucket that holds its time', () => {
    expect(bucketStart(t0 + 59 * 60_000, cfg)).toBe(t0);
    expect(bucketStart(t0 + H, cfg)).toBe(t0 + H);
    expect(bucketStart(t0 - 1, cfg)).toBe(t0 - H);
  });

  it('expires a bucket once `buckets` newer buckets have started', () => {
    expect(bucketExpiresAt(t0, cfg)).toBe(t0 + 24 * H);
  });

  it('rounds a window up to whole buckets and bounds it by what is kept', () => {
    expect(bucketsFor(24 * H, cfg)).toBe(24);
    expect(bucketsFor(90 * 60_000, cfg)).toBe(2);
    expect(() => bucketsFor(25 * H, cfg)).toThrow(RangeError);
    expect(() => bucketsFor(Number.NaN, cfg)).toThrow(RangeError);
  });
});

describe('summarize (fake clock)', () => {
  const now = t0 + 30 * 60_000; // 10:30: current bucket 10:00
  const rows = [
    { startMs: t0, count: 2 }, // current bucket, two chunks
    { startMs: t0, count: 1 },
    { startMs: t0 - 2 * H, count: 4 },
    { startMs: t0 - 24 * H, count: 100 }, // expired (TTL not yet run): filtered on read
    { startMs: t0 + H, count: 7 }, // in the future (clock skew): not in the window
  ];

  it('returns the window oldest first with empty buckets, its total and segment', () => {
    const w = summarize(rows, now, 3, cfg, segments);
    expect(w.buckets).toEqual([
      { start: '2026-11-22T08:00:00.000Z', count: 4 },
      { start: '2026-11-22T09:00:00.000Z', count: 0 },
      { start: '2026-11-22T10:00:00.000Z', count: 3 },
    ]);
    expect(w.total).toBe(7);
    expect(windowStart(now, 3, cfg)).toBe(t0 - 2 * H);
  });

  it('drops a bucket as the clock moves past the window, before TTL deletes it', () => {
    expect(summarize(rows, now, 24, cfg, segments).total).toBe(7);
    expect(summarize(rows, now + 21 * H, 24, cfg, segments).total).toBe(14); // 08:00 … 11:00 all in
    expect(summarize(rows, now + 22 * H, 24, cfg, segments).total).toBe(10); // 08:00 left the window
    expect(summarize(rows, now + 24 * H, 24, cfg, segments).total).toBe(7); // 10:00 left
    expect(summarize(rows, now + 25 * H, 24, cfg, segments).total).toBe(0); // 11:00 left
  });

  it('segments by thresholds for the full window, scaled to shorter ones', () => {
    const one = (count: number) => [{ startMs: t0, count }];
    expect(summarize(one(48), now, 24, cfg, segments).segment).toBe('power');
    expect(summarize(one(47), now, 24, cfg, segments).segment).toBe('casual');
    expect(summarize(one(2), now, 24, cfg, segments).segment).toBe('casual');
    expect(summarize(one(1), now, 24, cfg, segments).segment).toBe('inactive');
    expect(summarize(one(4), now, 2, cfg, segments).segment).toBe('power'); // 48 × 2/24
    expect(summarize(one(1), now, 2, cfg, segments).segment).toBe('casual'); // never below 1
    expect(summarize([], now, 2, cfg, segments).segment).toBe('inactive');
  });
});

describe('window config', () => {
  it('parses segments in any order and rejects nonsense', () => {
    expect(parseSegments('casual=1, POWER=20')).toEqual({ power: 20, casual: 1 });
    expect(() => parseSegments('power=5')).toThrow(/both/);
    expect(() => parseSegments('power=1,casual=5')).toThrow(/power > casual/);
    expect(() => parseSegments('power=x,casual=1')).toThrow(/entry "power=x"/);
  });
  it('needs a bucket of at least a second', () => {
    expect(parseBucketSize('15m')).toBe(900_000);
    expect(() => parseBucketSize('500ms')).toThrow();
    expect(() => parseBucketSize('off')).toThrow();
  });
});
