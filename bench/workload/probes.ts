/**
 * Probes: a post whose delivery is timed from its 201 until every follower has its copy
 * (copies.ts waitForCopies, polled every 20 ms, without waiting for the lanes: other posts' jobs
 * run beside a probe). A probe has no mentions, so the only job it starts is its fan-out.
 */
import type { BenchContext } from '../context.js';
import { waitForCopies } from '../copies.js';
import { now } from '../fixtures.js';

export interface ProbeResult {
  readonly author: string;
  readonly followers: number;
  /** ms from the 201 to the end of the poll that found the last copy. */
  readonly ms: number;
  /** ms from the 201 to the poll that first found a copy (the fan-out had started: stream, outbox and queue behind it). */
  readonly firstMs: number;
}

export async function probe(ctx: BenchContext, author: string, followers: readonly string[], tag: string, timeoutMs = 60_000): Promise<ProbeResult> {
  const res = await ctx.call('POST', '/activities', author, {
    verb: 'post',
    object: `probe:${tag}`,
    content: `probe ${tag}: is this in my followers' feeds yet?`,
  });
  const t201 = now();
  if (res.status !== 201) throw new Error(`probe post by ${author}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  const { doneAt, firstAt } = await waitForCopies(ctx, [{ rk: String(res.body.rangeKey), owners: followers }], { lanesEmpty: false, timeoutMs });
  return { author, followers: followers.length, ms: doneAt - t201, firstMs: firstAt - t201 };
}

/**
 * Probe authors spread over the follower counts: the i-th of `count` is the user at rank
 * i·n/count by followers (most followed first), so the probes cover the hot users and the tail.
 */
export function probeAuthors(followerCounts: readonly number[], count: number): number[] {
  const byFollowers = followerCounts.map((c, u) => ({ c, u })).sort((a, b) => b.c - a.c || a.u - b.u);
  return Array.from({ length: count }, (_, i) => byFollowers[Math.floor((i * byFollowers.length) / count)]!.u);
}
