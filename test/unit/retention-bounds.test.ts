import { describe, expect, it } from 'vitest';
import { rangeKeyOf } from '../../functions/model/range-key.js';
import { ageBound, expiresAtFor, spanBound } from '../../functions/services/retention/bounds.js';

const S = 1_000_000_000n;
const visible = (rk: bigint, bound: bigint | undefined) => bound === undefined || rk < bound;

describe('age bound', () => {
  const now = 1_800_000_000n * S;
  const ttlMs = 60_000;
  it('keeps an item younger than the TTL and hides one older, at any discriminator', () => {
    const bound = ageBound(now, ttlMs)!;
    for (const d of [0n, 999_999_999_999n]) {
      expect(visible(rangeKeyOf(now - 59n * S, d), bound)).toBe(true);
      expect(visible(rangeKeyOf(now - 61n * S, d), bound)).toBe(false);
    }
  });
  it('is exact to the nanosecond at the boundary', () => {
    const bound = ageBound(now, ttlMs)!;
    expect(visible(rangeKeyOf(now - 60n * S + 1n, 0n), bound)).toBe(true); // expires 1 ns from now
    expect(visible(rangeKeyOf(now - 60n * S, 999_999_999_999n), bound)).toBe(false); // expires now
  });
  it('is unbounded without a TTL', () => {
    expect(ageBound(now, undefined)).toBeUndefined();
  });
  it('sets expiresAt no earlier than the read-time expiry (rounded up to the second)', () => {
    const ticks = 1_800_000_000n * S + 1n;
    expect(expiresAtFor(ticks, ttlMs)).toBe(1_800_000_061);
    expect(expiresAtFor(1_800_000_000n * S, ttlMs)).toBe(1_800_000_060); // exact seconds stay exact
    expect(expiresAtFor(ticks, undefined)).toBeUndefined();
  });
  it('agrees with expiresAt: an item the read bound shows has not reached its TTL second', () => {
    for (const offset of [0n, 1n, 999_999_999n, S, 59n * S + 999_999_999n]) {
      const ticks = now - 60n * S + offset + 1n; // still visible at `now`
      expect(visible(rangeKeyOf(ticks, 0n), ageBound(now, ttlMs))).toBe(true);
      expect(BigInt(expiresAtFor(ticks, ttlMs)!) * S > now).toBe(true);
    }
  });
});

describe('span bound', () => {
  const newest = 1_800_000_000n * S;
  it('marks items older than the newest item minus the span', () => {
    const bound = spanBound(rangeKeyOf(newest, 5n), 3_600_000)!;
    expect(visible(rangeKeyOf(newest - 3600n * S, 0n), bound)).toBe(true);
    expect(visible(rangeKeyOf(newest - 3600n * S, 999_999_999_999n), bound)).toBe(true);
    expect(visible(rangeKeyOf(newest - 3600n * S - 1n, 0n), bound)).toBe(false);
  });
  it('is unbounded without a span', () => {
    expect(spanBound(rangeKeyOf(newest, 5n), undefined)).toBeUndefined();
  });
});
