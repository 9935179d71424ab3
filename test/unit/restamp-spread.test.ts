/**
 * A restamp (nothing missing: only bounds to raise) is spread over STAMP_SPREAD by reader
 * (model/reader-activity.ts restampDelaySeconds), so a cohort's first reads — every reader, the day
 * activity-aware fan-out is deployed — do not all write their follows' entries at once.
 */
import { describe, expect, it } from 'vitest';
import { restampDelaySeconds } from '../../functions/model/reader-activity.js';

const DAY = 86_400_000_000_000n; // ticks (ns)
const readers = Array.from({ length: 2000 }, (_, i) => `reader-${i}`);

describe('restampDelaySeconds', () => {
  it('spreads a cohort evenly over the spread (15 minutes: every minute gets its share)', () => {
    const delays = readers.map((r) => restampDelaySeconds(r, 900_000, 30n * DAY));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThan(900);
    const perMinute = Array.from({ length: 15 }, (_, m) => delays.filter((d) => Math.floor(d / 60) === m).length);
    // 2000 readers over 15 minutes: about 133 a minute; none empty, none holding a quarter.
    for (const n of perMinute) expect(n).toBeGreaterThan(80);
    for (const n of perMinute) expect(n).toBeLessThan(500);
  });

  it('is the same for the same reader, and differs between readers', () => {
    expect(restampDelaySeconds('bob', 900_000, 30n * DAY)).toBe(restampDelaySeconds('bob', 900_000, 30n * DAY));
    expect(new Set(readers.slice(0, 50).map((r) => restampDelaySeconds(r, 900_000, 30n * DAY))).size).toBeGreaterThan(40);
  });

  it('never waits past an eighth of the window (the ask comes with half of it left), nor SQS’s 15 minutes', () => {
    const window = 15_000_000_000n; // 15 s
    for (const r of readers) expect(restampDelaySeconds(r, 900_000, window)).toBeLessThanOrEqual(1); // 1.875 s, whole seconds
    for (const r of readers) expect(restampDelaySeconds(r, 3_600_000, undefined)).toBeLessThan(900);
  });

  it('is at once with STAMP_SPREAD=off', () => {
    for (const r of readers.slice(0, 100)) expect(restampDelaySeconds(r, undefined, 30n * DAY)).toBe(0);
  });
});
