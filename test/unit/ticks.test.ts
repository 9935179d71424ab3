import { describe, expect, it } from 'vitest';
import { MAX_TICKS } from '../../functions/model/range-key.js';
import { isoFromTicks, nowTicks, ticksFromIso } from '../../functions/platform/clock.js';

describe('ticks', () => {
  it('keep all nine fractional digits of an RFC 3339 time', () => {
    expect(ticksFromIso('2026-11-22T18:30:01.123456789Z')).toBe(1_795_372_201_123_456_789n);
    expect(ticksFromIso('1970-01-01T00:00:00.000000001Z')).toBe(1n);
    expect(ticksFromIso('1970-01-01T00:00:00Z')).toBe(0n);
  });

  it('apply offsets', () => {
    expect(ticksFromIso('2026-11-22T20:30:01.5+02:00')).toBe(ticksFromIso('2026-11-22T18:30:01.500000000Z'));
  });

  it('format back to the same instant with nanoseconds', () => {
    for (const t of [0n, 1n, 1_795_372_201_123_456_789n, MAX_TICKS]) {
      const iso = isoFromTicks(t);
      expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
      expect(ticksFromIso(iso)).toBe(t);
    }
    expect(isoFromTicks(MAX_TICKS)).toBe('2262-04-11T23:47:16.854775807Z');
  });

  it('reject what is not a time', () => {
    expect(ticksFromIso('yesterday')).toBeUndefined();
  });

  it('never repeat or go backwards within a process', () => {
    let last = nowTicks();
    let backwards = 0;
    for (let i = 0; i < 100_000; i++) {
      const t = nowTicks();
      if (t <= last) backwards++;
      last = t;
    }
    expect(backwards).toBe(0);
    // Anchored to the wall clock (within a second).
    expect(Number(nowTicks() / 1_000_000n - BigInt(Date.now()))).toBeLessThan(1000);
  });
});
