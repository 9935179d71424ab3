/** RATE_LIMITS (lib/defs/rate-limits.ts) and the bucket arithmetic (functions/model/rate-bucket.ts): pure, no network. */
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../lib/defs/config.js';
import { DEFAULT_RATE_LIMITS, parseRateLimits, RATE_CLASSES } from '../../lib/defs/rate-limits.js';
import { routes, routeSpecs } from '../../lib/defs/routes.js';
import { allowanceOf, bucketOf, burstPerInstance, leaseOf, tokensAt, waitForOneUs } from '../../functions/model/rate-bucket.js';

describe('RATE_LIMITS', () => {
  it('is on by default, at limits a person does not meet and a script does in seconds', () => {
    const limits = readConfig('RATE_LIMITS', {})!;
    expect(Object.keys(limits).sort()).toEqual([...RATE_CLASSES].sort());
    expect(limits.posts).toEqual({ burst: 200, periodMs: 600_000 });
    // A few hundred posts in a few seconds meet it: at most 200 + a tenth per instance, plus one per 3 s.
    expect(burstPerInstance(limits.posts)).toBe(220);
    expect(limits.follows.burst).toBe(100);
    expect(limits.reads.burst).toBeGreaterThanOrEqual(600);
  });

  it('parses pairs over the defaults, `off`, and refuses what it cannot read', () => {
    expect(parseRateLimits('off')).toBeUndefined();
    const some = parseRateLimits('posts=5/1s')!;
    expect(some.posts).toEqual({ burst: 5, periodMs: 1000 });
    expect(some.reads).toEqual(parseRateLimits(DEFAULT_RATE_LIMITS)!.reads);
    for (const bad of ['posts=0/1m', 'posts=10', 'likes=10/1m', 'posts=10/soon', 'posts=-1/1m']) {
      expect(() => readConfig('RATE_LIMITS', { RATE_LIMITS: bad }), bad).toThrow(/RATE_LIMITS/);
    }
  });

  it('classifies every route a caller can reach, and only those: every GET is a read', () => {
    for (const route of routes) {
      expect(route.rate !== undefined, route.id).toBe(route.auth);
      if (route.auth && route.method === 'GET') expect(route.rate, route.id).toBe('reads');
    }
    expect(routeSpecs.postActivity.rate).toBe('posts');
    expect(routeSpecs.unfollow.rate).toBe('follows');
    expect(routeSpecs.block.rate).toBe('follows');
    expect(routeSpecs.postComment.rate).toBe('reactions');
    // Admin-only routes are classified too, though admin tokens are not limited.
    expect(routes.filter((r) => r.access === 'admin').every((r) => r.rate !== undefined)).toBe(true);
  });
});

describe('the bucket (GCRA over one number, tat, in µs)', () => {
  const limit = { burst: 10, periodMs: 10_000 }; // 1 token a second
  const spec = bucketOf(limit);

  it('refills at burst/period and holds at most burst', () => {
    expect(spec).toEqual({ burst: 10, intervalUs: 1_000_000 });
    const now = 5_000_000_000;
    expect(tokensAt(undefined, now, spec)).toBe(10);
    expect(tokensAt(now - 1, now, spec)).toBe(10);
    expect(tokensAt(now + 10 * spec.intervalUs, now, spec)).toBe(0); // all ten taken just now
    expect(tokensAt(now + 7 * spec.intervalUs, now, spec)).toBe(3);
    expect(tokensAt(now + 7 * spec.intervalUs, now + 2_500_000, spec)).toBe(5); // 2.5 s later: 2 more whole tokens
    expect(waitForOneUs(now + 10 * spec.intervalUs, now, spec)).toBe(1_000_000);
    expect(waitForOneUs(now + 9 * spec.intervalUs, now, spec)).toBe(0);
  });

  it("an instance's own allowance is a tenth of the limit (at least one), its lease 1–20 tokens", () => {
    expect(allowanceOf(limit)).toEqual({ burst: 1, intervalUs: 10_000_000 });
    expect(allowanceOf({ burst: 200, periodMs: 600_000 })).toEqual({ burst: 20, intervalUs: 30_000_000 });
    expect(leaseOf({ burst: 5, periodMs: 1000 })).toBe(1);
    expect(leaseOf({ burst: 200, periodMs: 1000 })).toBe(20);
    expect(leaseOf({ burst: 100_000, periodMs: 1000 })).toBe(20);
  });
});
