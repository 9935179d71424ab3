/**
 * A restamp (nothing missing: only bounds to raise) is spread over STAMP_SPREAD by reader
 * (model/reader-activity.ts restampDelaySeconds), so a cohort's first reads — every reader, the day
 * activity-aware fan-out is deployed — do not all write their follows' entries at once.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_ASK_TURNS, firstAskOpen, restampDelaySeconds } from '../../functions/model/reader-activity.js';

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

describe('firstAskOpen: a never-stamped reader asks in their turn', () => {
  const SPREAD = 900_000;
  const T0 = 1_800_000_000_000; // ms

  it('lets about an eighth of a cohort ask at any instant', () => {
    for (const at of [T0, T0 + 123_456, T0 + 600_000]) {
      const open = readers.filter((r) => firstAskOpen(r, at, SPREAD, 30n * DAY)).length;
      expect(open).toBeGreaterThan(readers.length / FIRST_ASK_TURNS / 1.5);
      expect(open).toBeLessThan((readers.length / FIRST_ASK_TURNS) * 1.5);
    }
  });

  it('gives each reader one unbroken eighth of every spread, the same in the next', () => {
    for (const r of readers.slice(0, 20)) {
      const open = Array.from({ length: 2 * 900 }, (_, s) => firstAskOpen(r, T0 + s * 1000, SPREAD, 30n * DAY));
      const first = open.slice(0, 900);
      expect(first.filter(Boolean).length).toBeGreaterThanOrEqual(112);
      expect(first.filter(Boolean).length).toBeLessThanOrEqual(113);
      expect(open.slice(900)).toEqual(first);
      const starts = first.filter((o, i) => o && !first[(i + 899) % 900]).length;
      expect(starts).toBe(1); // one turn, not scattered instants
    }
  });

  it('so a reader who reads every minute through a spread asks within it', () => {
    for (const r of readers) expect(Array.from({ length: 15 }, (_, m) => firstAskOpen(r, T0 + m * 60_000, SPREAD, 30n * DAY)).some(Boolean)).toBe(true);
  });

  it('is always open with STAMP_SPREAD=off', () => {
    for (const r of readers.slice(0, 100)) expect(firstAskOpen(r, T0, undefined, 30n * DAY)).toBe(true);
  });
});
