/** Home-feed retention policy (count margin, trim chance) and the per-copy trim decision. */
import { describe, expect, it } from 'vitest';
import { rangeKeyOf } from '../../functions/model/range-key.js';
import { homeFeedPolicyFromEnv, homeFeedPolicyOf, timelinePolicyFromEnv } from '../../functions/services/retention/retention-policy.js';
import { startsTrim } from '../../functions/services/retention/trim.js';

describe('homeFeedPolicyOf', () => {
  it('N = 10: margin ⌈N/4⌉ = 3, a trim attempt on about 1 in every 10 copies', () => {
    expect(homeFeedPolicyOf(10)).toEqual({ maxItems: 10, margin: 3, attemptChance: 0.1, maxSpanMs: undefined, ttlMs: undefined });
  });

  it('N = 1000 (the default): margin 250, chance 1/1000', () => {
    expect(homeFeedPolicyOf(1000, undefined, 86_400_000)).toEqual({
      maxItems: 1000,
      margin: 250,
      attemptChance: 0.001,
      maxSpanMs: undefined,
      ttlMs: 86_400_000,
    });
  });

  it.each([
    [1, 1, 1],
    [2, 1, 0.5],
    [4, 1, 0.25],
    [5, 2, 0.2],
    [9, 3, 1 / 9],
  ])('tiny feeds: N = %i → margin %i (at least 1), chance %f (1/N: every copy at N = 1)', (n, margin, chance) => {
    expect(homeFeedPolicyOf(n)).toMatchObject({ maxItems: n, margin, attemptChance: chance });
  });

  it('no count and no span: nothing to trim, never attempted', () => {
    expect(homeFeedPolicyOf(undefined, undefined, 1000)).toMatchObject({ maxItems: undefined, margin: 0, attemptChance: 0, ttlMs: 1000 });
  });

  it('span only: trims are attempted now and then (1 in 16 copies)', () => {
    expect(homeFeedPolicyOf(undefined, 3_600_000)).toMatchObject({ maxItems: undefined, margin: 0, attemptChance: 1 / 16, maxSpanMs: 3_600_000 });
  });

  it('an explicit trim chance replaces the derived one, and still never trims a feed without a policy', () => {
    expect(homeFeedPolicyOf(10, undefined, undefined, 1)).toMatchObject({ maxItems: 10, margin: 3, attemptChance: 1 });
    expect(homeFeedPolicyOf(undefined, 3_600_000, undefined, 0.5)).toMatchObject({ attemptChance: 0.5 });
    expect(homeFeedPolicyOf(undefined, undefined, 1000, 1)).toMatchObject({ attemptChance: 0 });
  });
});

describe('policies from the environment', () => {
  it('home feeds: FEED_MAX_ITEMS, FEED_MAX_SPAN, FEED_TTL with their defaults', () => {
    expect(homeFeedPolicyFromEnv({})).toEqual(homeFeedPolicyOf(1000, undefined, 30 * 86_400_000));
    expect(homeFeedPolicyFromEnv({ FEED_MAX_ITEMS: 'off', FEED_MAX_SPAN: '1h', FEED_TTL: 'off' })).toEqual(homeFeedPolicyOf(undefined, 3_600_000, undefined));
    expect(() => homeFeedPolicyFromEnv({ FEED_MAX_ITEMS: 'lots' })).toThrow(/^FEED_MAX_ITEMS: /);
    expect(homeFeedPolicyFromEnv({ FEED_MAX_ITEMS: '10', FEED_TRIM_CHANCE: '1' })).toMatchObject({ maxItems: 10, attemptChance: 1 });
    expect(homeFeedPolicyFromEnv({ FEED_MAX_ITEMS: '10', FEED_TRIM_CHANCE: 'auto' })).toMatchObject({ attemptChance: 0.1 });
    for (const bad of ['0', '1.5', '-0.1', 'half', '']) {
      expect(() => homeFeedPolicyFromEnv({ FEED_TRIM_CHANCE: bad })).toThrow(/^FEED_TRIM_CHANCE: /);
    }
  });

  it('timelines: kept until deleted unless TIMELINE_TTL is set', () => {
    expect(timelinePolicyFromEnv({})).toEqual({ ttlMs: undefined });
    expect(timelinePolicyFromEnv({ TIMELINE_TTL: '365d' })).toEqual({ ttlMs: 365 * 86_400_000 });
  });
});

describe('startsTrim', () => {
  const t0 = 1_795_372_201_000_000_000n;
  /** Range keys of successive posts: server ticks a few µs apart, random-looking discriminators. */
  const rks = (count: number, seed = 1n) =>
    Array.from({ length: count }, (_, i) => rangeKeyOf(t0 + BigInt(i) * 3_137n * seed, (BigInt(i) * 982_451_653n + seed) % 10n ** 12n));
  const rate = (decisions: boolean[]) => decisions.filter(Boolean).length / decisions.length;

  it('is deterministic: a redelivered copy write decides the same way', () => {
    const policy = homeFeedPolicyOf(10);
    for (const rk of rks(2000)) {
      const first = startsTrim('alice', rk, policy);
      expect(startsTrim('alice', rk, policy)).toBe(first);
      expect(startsTrim('alice', rk, homeFeedPolicyOf(10))).toBe(first);
    }
  });

  // Tolerances are ~4 standard deviations of a fair coin with the policy's chance.
  it.each([
    [10, 20_000],
    [100, 100_000],
    [1000, 400_000],
  ])('N = %i: the share of one feed’s copies that start a trim is close to the policy’s chance', (n, count) => {
    const { attemptChance: p } = homeFeedPolicyOf(n);
    const r = rate(rks(count).map((rk) => startsTrim('alice', rk, homeFeedPolicyOf(n))));
    expect(Math.abs(r - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / count));
  });

  it('is close to the chance for span-only feeds too (1/16)', () => {
    const policy = homeFeedPolicyOf(undefined, 3_600_000);
    const r = rate(rks(20_000).map((rk) => startsTrim('bob', rk, policy)));
    expect(Math.abs(r - 1 / 16)).toBeLessThan(4 * Math.sqrt(((1 / 16) * (15 / 16)) / 20_000));
  });

  it('decides per feed: one post fanned out to many feeds does not start a trim in all of them at once', () => {
    const policy = homeFeedPolicyOf(100);
    const p = policy.attemptChance;
    for (const rk of rks(5)) {
      const r = rate(Array.from({ length: 50_000 }, (_, i) => startsTrim(`user-${i}`, rk, policy)));
      expect(Math.abs(r - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / 50_000));
    }
  });

  it('never attempts without a count or span policy, always attempts at chance 1', () => {
    for (const rk of rks(1000)) {
      expect(startsTrim('alice', rk, homeFeedPolicyOf(undefined))).toBe(false);
      expect(startsTrim('alice', rk, homeFeedPolicyOf(1))).toBe(true);
      expect(startsTrim('alice', rk, homeFeedPolicyOf(1000, undefined, undefined, 1))).toBe(true);
    }
  });
});
