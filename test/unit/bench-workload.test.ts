/**
 * The workload bench's pure parts: the seeded graph and posts (deterministic, the promised shape),
 * the open-loop schedule (send times fixed by the rate, the mix exact per block), and the minimum
 * item writes the end-to-end figures divide by.
 */
import { describe, expect, it } from 'vitest';
import { contentOf, defaultShape, followerCounts, generateWorkload } from '../../bench/workload/graph.js';
import { followMinimumWrites, postMinimumWrites } from '../../bench/workload/minimum-writes.js';
import { probeAuthors } from '../../bench/workload/probes.js';
import { seededRandom } from '../../bench/workload/random.js';
import { followBurst, mergeSchedules, openLoopSchedule } from '../../bench/workload/schedule.js';
import { mentionsIn } from '../../functions/model/mentions.js';

describe('seeded random', () => {
  it('repeats its sequence for a seed and differs between seeds', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, seededRandom(seed).next);
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('samples distinct values within range', () => {
    const rng = seededRandom(1);
    const from = Array.from({ length: 50 }, (_, i) => i);
    const picked = rng.sample(from, 20);
    expect(new Set(picked).size).toBe(20);
    expect(picked.every((v) => v >= 0 && v < 50)).toBe(true);
    expect(from).toEqual(Array.from({ length: 50 }, (_, i) => i)); // input untouched
    expect(rng.sample(from, 80)).toHaveLength(50);
  });
});

describe('workload graph', () => {
  const w = generateWorkload(defaultShape);

  it('is the same graph and posts for the same seed, another for another seed', () => {
    const again = generateWorkload(defaultShape);
    expect(again.edges).toEqual(w.edges);
    expect(again.posts).toEqual(w.posts);
    const other = generateWorkload({ ...defaultShape, seed: defaultShape.seed + 1 });
    expect(other.edges.slice(0, 100)).not.toEqual(w.edges.slice(0, 100));
  });

  it('has about 40,000 distinct follows among 1,000 users, none of oneself', () => {
    expect(Math.abs(w.edges.length - 40_000)).toBeLessThan(400);
    expect(new Set(w.edges.map((e) => `${e.follower}>${e.followee}`)).size).toBe(w.edges.length);
    expect(w.edges.some((e) => e.follower === e.followee)).toBe(false);
    expect(w.edges.every((e) => e.follower >= 0 && e.follower < 1000 && e.followee >= 0 && e.followee < 1000)).toBe(true);
  });

  it('follows a power law: a few users followed by a third of everyone, a long tail', () => {
    const counts = w.followersOf.map((f) => f.length).sort((a, b) => b - a);
    const third = Math.floor(1000 / 3);
    expect(counts[0]).toBe(third);
    const hot = counts.filter((c) => c === third).length;
    expect(hot).toBeGreaterThanOrEqual(3);
    expect(hot).toBeLessThanOrEqual(10);
    expect(counts[500]).toBeLessThan(40); // the median is under the mean
    expect(counts.at(-1)).toBeGreaterThanOrEqual(1);
    // The counts are the planned ones, and the indexes agree with the edge list.
    expect(counts).toEqual(followerCounts(defaultShape).sort((a, b) => b - a));
    expect(w.followingOf.reduce((n, f) => n + f.length, 0)).toBe(w.edges.length);
  });

  it('plans about 10 posts per user with 0-5 distinct mentions of others, in content the API parses', () => {
    expect(w.posts.length).toBeGreaterThan(9000);
    expect(w.posts.length).toBeLessThan(11000);
    expect(w.posts.map((p) => p.seq)).toEqual(w.posts.map((_, i) => i));
    const sizes = new Set(w.posts.map((p) => p.mentions.length));
    expect([...sizes].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const p of w.posts.slice(0, 500)) {
      expect(p.mentions).not.toContain(p.author);
      expect(new Set(p.mentions).size).toBe(p.mentions.length);
      expect(mentionsIn(contentOf(p, (u) => `user-${u}`))).toEqual(p.mentions.map((m) => `user-${m}`));
    }
    // Any prefix samples many authors (the list is shuffled, not grouped by author).
    expect(new Set(w.posts.slice(0, 200).map((p) => p.author)).size).toBeGreaterThan(150);
  });
});

describe('open-loop schedule', () => {
  const plan = { ratePerSecond: 150, seconds: 4, weights: { home: 6, timeline: 3, post: 1 }, users: 1000, seed: 3, postAuthor: (n: number) => n % 7 };

  it('sends at fixed times set by the rate, whatever the answers', () => {
    const s = openLoopSchedule(plan);
    expect(s).toHaveLength(600);
    s.forEach((r, i) => expect(r.atMs).toBeCloseTo((i * 1000) / 150, 9));
  });

  it('holds the mix exactly in every block of 10 and numbers each kind', () => {
    const s = openLoopSchedule(plan);
    for (let b = 0; b < s.length; b += 10) {
      const kinds = s.slice(b, b + 10).map((r) => r.kind);
      expect(kinds.filter((k) => k === 'home')).toHaveLength(6);
      expect(kinds.filter((k) => k === 'timeline')).toHaveLength(3);
      expect(kinds.filter((k) => k === 'post')).toHaveLength(1);
    }
    const posts = s.filter((r) => r.kind === 'post');
    expect(posts.map((p) => p.ordinal)).toEqual(posts.map((_, i) => i));
    expect(posts.map((p) => p.user)).toEqual(posts.map((_, i) => i % 7));
    expect(s.filter((r) => r.kind === 'timeline').every((r) => r.target !== undefined && r.target < 1000)).toBe(true);
    expect(openLoopSchedule(plan)).toEqual(s);
  });

  it('merges a follow burst by send time', () => {
    const burst = followBurst({ startMs: 1000, ratePerSecond: 50, followers: [4, 5, 6], target: 9 });
    expect(burst.map((b) => b.atMs)).toEqual([1000, 1020, 1040]);
    const merged = mergeSchedules(openLoopSchedule(plan), burst);
    expect(merged).toHaveLength(603);
    expect(merged.every((r, i) => i === 0 || merged[i - 1]!.atMs <= r.atMs)).toBe(true);
    expect(merged.filter((r) => r.kind === 'follow').map((r) => [r.user, r.target])).toEqual([
      [4, 9],
      [5, 9],
      [6, 9],
    ]);
  });
});

describe('minimum item writes', () => {
  it('a follow: 5 graph items and 2 notification items, 3 per followee for its group', () => {
    const w = followMinimumWrites([
      { follower: 1, followee: 2 },
      { follower: 3, followee: 2 },
      { follower: 1, followee: 4 },
    ]);
    expect(w.total).toBe(3 * 7 + 2 * 3);
  });

  it('a post: original, own copy, a copy per follower, 4 per mention, a head per recipient, a quota per stranger pair', () => {
    const followers: Record<number, number> = { 1: 10, 2: 0 };
    const follows = new Set(['5>1']); // 5 follows 1; 6 does not
    const w = postMinimumWrites(
      [
        { author: 1, mentions: [5, 6] },
        { author: 1, mentions: [6] },
        { author: 2, mentions: [] },
      ],
      (u) => followers[u] ?? 0,
      (a, b) => follows.has(`${a}>${b}`),
    );
    expect(w.copies).toBe(20);
    // 3 originals + 3 own copies + 20 copies + 3 mentions × 4 + 2 heads (5, 6) + 1 stranger pair (6 → 1)
    expect(w.total).toBe(6 + 20 + 12 + 2 + 1);
  });
});

describe('probe authors', () => {
  it('spread from the most followed down the tail', () => {
    expect(probeAuthors([5, 50, 1, 20, 9], 5)).toEqual([1, 3, 4, 0, 2]);
    expect(probeAuthors([5, 50, 1, 20], 2)).toEqual([1, 0]);
  });
});
