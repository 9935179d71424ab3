import { describe, expect, it } from 'vitest';
import { rangeKeyOf } from '../../functions/core/keys.js';
import { ageBound, expiresAtFor, spanBound, tightest } from '../../functions/core/retention/bounds.js';
import { trimMarginFor, type RetentionPolicy } from '../../functions/core/retention/policy.js';

const S = 1_000_000_000n;
const policy = (p: Partial<RetentionPolicy>): RetentionPolicy => ({ trimMargin: 0, ...p });
const visible = (rk: bigint, bound: bigint | undefined) => bound === undefined || rk < bound;

describe('age bound', () => {
  const now = 1_800_000_000n * S;
  const p = policy({ ttlMs: 60_000 });
  it('keeps an item younger than the TTL and hides one older, at any discriminator', () => {
    const bound = ageBound(now, p)!;
    for (const d of [0n, 999_999_999_999n]) {
      expect(visible(rangeKeyOf(now - 59n * S, d), bound)).toBe(true);
      expect(visible(rangeKeyOf(now - 61n * S, d), bound)).toBe(false);
    }
  });
  it('is exact to the nanosecond at the boundary', () => {
    const bound = ageBound(now, p)!;
    expect(visible(rangeKeyOf(now - 60n * S + 1n, 0n), bound)).toBe(true); // expires 1 ns from now
    expect(visible(rangeKeyOf(now - 60n * S, 999_999_999_999n), bound)).toBe(false); // expires now
  });
  it('is unbounded without a TTL', () => {
    expect(ageBound(now, policy({}))).toBeUndefined();
  });
  it('sets expiresAt no earlier than the read-time expiry (rounded up to the second)', () => {
    const ticks = 1_800_000_000n * S + 1n;
    expect(expiresAtFor(ticks, p)).toBe(1_800_000_061);
    expect(expiresAtFor(ticks, policy({}))).toBeUndefined();
  });
});

describe('span bound', () => {
  it('hides items older than the newest item minus the span', () => {
    const newest = 1_800_000_000n * S;
    const bound = spanBound(rangeKeyOf(newest, 5n), policy({ maxSpanMs: 3_600_000 }))!;
    expect(visible(rangeKeyOf(newest - 3600n * S, 0n), bound)).toBe(true);
    expect(visible(rangeKeyOf(newest - 3600n * S - 1n, 0n), bound)).toBe(false);
  });
});

describe('tightest / margin', () => {
  it('picks the smallest bound and ignores missing ones', () => {
    expect(tightest(undefined, 5n, 3n, undefined)).toBe(3n);
    expect(tightest(undefined)).toBeUndefined();
  });
  it('trims in batches of a tenth of N, at least 10', () => {
    expect(trimMarginFor(1000)).toBe(100);
    expect(trimMarginFor(50)).toBe(10);
  });
});
