/**
 * Home-feed count trims against an in-memory feed store (no network): what a trim deletes, what it
 * reads, and — driven through the one copy writer with the real trim draws — that a feed always
 * keeps its N newest copies while its size stays bounded.
 * The fake follows stores/feed-store.ts's contract: copyKeys = rks of f#owner strictly between
 * `after` (default the head, rk 0) and `below`, ascending (newest first), at most `limit`;
 * recordTrimTop only moves the head's `top` to a newer (smaller) rk.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => {
  const feeds = new Map<string, Set<bigint>>();
  const tops = new Map<string, bigint>();
  const keysOf = (owner: string) => {
    let set = feeds.get(owner);
    if (!set) feeds.set(owner, (set = new Set()));
    return set;
  };
  const sorted = (owner: string) => [...keysOf(owner)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    feeds,
    tops,
    keysOf,
    sorted,
    reset() {
      feeds.clear();
      tops.clear();
    },
    store: {
      async putCopies(groups: readonly { source: Record<string, unknown>; owners: readonly string[]; expiresAt?: number }[]) {
        for (const g of groups) for (const owner of g.owners) keysOf(owner).add(BigInt(String(g.source.rk)));
      },
      async deleteCopies(keys: readonly { owner: string; rk: bigint }[]) {
        for (const k of keys) keysOf(k.owner).delete(k.rk);
      },
      async copyKeys(owner: string, range: { after?: bigint; below?: bigint; limit: number }) {
        const after = range.after ?? 0n;
        return sorted(owner)
          .filter((rk) => rk > after && (range.below === undefined || rk < range.below))
          .slice(0, range.limit);
      },
      async readHead(owner: string) {
        return { pulled: [] as string[], top: tops.get(owner) };
      },
      async recordTrimTop(owner: string, top: bigint) {
        const have = tops.get(owner);
        if (have === undefined || have > top) tops.set(owner, top);
      },
    },
  };
});

vi.mock('../../functions/stores/feed-store.js', () => fake.store);

// The copy writer reads its policy once, on first use.
process.env.FEED_MAX_ITEMS = '20';
process.env.FEED_MAX_SPAN = 'off';
process.env.FEED_TTL = 'off';

const { rangeKeyOf } = await import('../../functions/model/range-key.js');
const { homeFeedPolicyOf } = await import('../../functions/services/retention/retention-policy.js');
const { trimHomeFeed } = await import('../../functions/services/retention/trim.js');
const { writeCopies } = await import('../../functions/services/home-feed-copies.js');

/** A fixed instant (2026-09-21): the trim draws hash the keys, so fixed keys make the run repeatable. */
const t0 = 1_790_000_000_000n * 1_000_000n;
/** rk of the i-th post: larger i = posted later = smaller rk (newer). */
const rkAt = (i: number) => rangeKeyOf(t0 + BigInt(i) * 1_000_000n, BigInt(i % 997));
const put = (owner: string, from: number, to: number) => {
  for (let i = from; i < to; i++) fake.keysOf(owner).add(rkAt(i));
};
/** The `count` newest rks among posts [0, upTo). */
const newest = (upTo: number, count: number) => Array.from({ length: Math.min(count, upTo) }, (_, j) => rkAt(upTo - 1 - j));

beforeEach(() => fake.reset());

describe('trimHomeFeed (count)', () => {
  const N = 10;
  const policy = homeFeedPolicyOf(N); // margin 3

  it('leaves a feed alone until it holds 2N + margin copies, then cuts it to its N newest', async () => {
    put('o', 0, 2 * N + policy.margin - 1);
    expect(await trimHomeFeed('o', policy)).toEqual({ deleted: 0, examined: 2 * N + policy.margin - 1 });
    expect(fake.keysOf('o').size).toBe(2 * N + policy.margin - 1);

    put('o', 2 * N + policy.margin - 1, 2 * N + policy.margin);
    const r = await trimHomeFeed('o', policy);
    expect(r.deleted).toBe(N + policy.margin);
    expect(r.kept).toBe(rkAt(2 * N + policy.margin - N));
    expect(fake.sorted('o')).toEqual(newest(2 * N + policy.margin, N));
    expect(fake.tops.get('o')).toBe(rkAt(2 * N + policy.margin - 1)); // the newest copy it saw
    expect(r.examined).toBeLessThan(2 * r.deleted);
  });

  it('after a trim, reads only the copies written since, and cuts again once N + margin of them exist', async () => {
    const first = 2 * N + policy.margin;
    put('o', 0, first);
    await trimHomeFeed('o', policy);

    put('o', first, first + N + policy.margin - 1);
    const early = await trimHomeFeed('o', policy);
    expect(early).toEqual({ deleted: 0, examined: N + policy.margin - 1 }); // not the N kept below `top`

    put('o', first + N + policy.margin - 1, first + N + policy.margin);
    const r = await trimHomeFeed('o', policy);
    expect(fake.sorted('o')).toEqual(newest(first + N + policy.margin, N));
    expect(r.deleted).toBe(N + policy.margin);
    expect(r.examined).toBeLessThan(2 * r.deleted);
  });

  it('cuts at the N-th newest copy still there: a feed that lost copies to retracts keeps N', async () => {
    put('o', 0, 40);
    fake.keysOf('o').delete(rkAt(39)); // a retract took the newest
    fake.keysOf('o').delete(rkAt(35));
    await trimHomeFeed('o', policy);
    const left = fake.sorted('o');
    expect(left).toHaveLength(N);
    expect(left).toEqual([...newest(40, N + 2)].filter((rk) => rk !== rkAt(39) && rk !== rkAt(35)));
  });

  it('counts copies that land below `top` (a follow’s backfill of older posts) from the feed’s newest', async () => {
    put('o', 100, 100 + 2 * N + policy.margin);
    await trimHomeFeed('o', policy); // top = newest; N kept
    put('o', 0, N + policy.margin); // older posts, all below top
    // Started by those writes: the whole top of the feed counts (2N + margin of it).
    const r = await trimHomeFeed('o', policy, rkAt(0));
    expect(r.deleted).toBe(N + policy.margin);
    expect(fake.sorted('o')).toEqual(newest(100 + 2 * N + policy.margin, N));
  });
});

describe('trimHomeFeed (span and none)', () => {
  it('drops copies older than the newest minus the span, with or without a count', async () => {
    put('o', 0, 30); // posts 1 ms apart
    const r = await trimHomeFeed('o', homeFeedPolicyOf(undefined, 10));
    // Newest is post 29: the span keeps posts 19..29 (within 10 ms of it).
    expect(fake.sorted('o')).toEqual(newest(30, 11));
    expect(r.deleted).toBe(19);
  });

  it('does nothing without a count or span policy', async () => {
    put('o', 0, 100);
    expect(await trimHomeFeed('o', homeFeedPolicyOf(undefined))).toEqual({ deleted: 0, examined: 0 });
    expect(fake.keysOf('o').size).toBe(100);
  });
});

describe('copy writes with trim draws (FEED_MAX_ITEMS = 20)', () => {
  const N = 20;
  const policy = homeFeedPolicyOf(N);
  const source = (i: number) => ({ pk: 't#author', rk: rkAt(i), id: `id-${i}`, actor: 'author', verb: 'post', time: 't' });

  it('keeps every feed’s N newest copies, and its size near 2N + margin at most', async () => {
    const owners = ['a', 'b', 'c', 'd', 'e'];
    const posts = 3000;
    const peak = new Map<string, number>();
    let sizes = 0;
    for (let i = 0; i < posts; i++) {
      await writeCopies(owners.map((owner) => ({ owner, source: source(i) })));
      for (const owner of owners) {
        const keys = fake.sorted(owner);
        expect(keys.slice(0, Math.min(N, i + 1))).toEqual(newest(i + 1, N));
        peak.set(owner, Math.max(peak.get(owner) ?? 0, keys.length));
        sizes += keys.length;
      }
    }
    // A feed grows from N to 2N + margin (+ the wait for the next draw, ~N on average) between
    // trims: on average well below 2N + margin; never unbounded.
    const mean = sizes / posts / owners.length;
    expect(mean).toBeGreaterThan(N);
    expect(mean).toBeLessThan(2.5 * N); // measured ≈ 2.3N with a 1/N chance
    for (const owner of owners) {
      expect(peak.get(owner)!).toBeGreaterThanOrEqual(2 * N + policy.margin); // trims wait for the overshoot
      expect(peak.get(owner)!).toBeLessThan(2 * N + policy.margin + 10 / policy.attemptChance);
      expect(fake.tops.get(owner)).toBeDefined();
    }
  });
});
