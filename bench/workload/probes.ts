/**
 * Probes: a post whose delivery is timed from its 201 until every follower has its copy (polled
 * with keys-only BatchGetItem of the copies still missing, every 10 ms). A probe has no mentions,
 * so the only job it starts is its fan-out.
 */
import type { BenchContext } from '../context.js';
import { missingCopies, now, sleep } from '../fixtures.js';

export interface ProbeResult {
  readonly author: string;
  readonly followers: number;
  /** ms from the 201 to the poll that found the last copy. */
  readonly ms: number;
}

export async function probe(ctx: BenchContext, author: string, followers: readonly string[], tag: string, timeoutMs = 60_000): Promise<ProbeResult> {
  const res = await ctx.call('POST', '/activities', author, { verb: 'post', object: `probe:${tag}`, content: `probe ${tag}: is this in my followers' feeds yet?` });
  const t201 = now();
  if (res.status !== 201) throw new Error(`probe post by ${author}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  const rk = String(res.body.rangeKey);
  let missing: string[] = [...followers];
  while (missing.length) {
    if (now() - t201 > timeoutMs) throw new Error(`probe ${tag}: ${missing.length} of ${followers.length} copies still missing after ${timeoutMs} ms`);
    missing = await missingCopies(ctx, missing, rk);
    if (missing.length) await sleep(10);
  }
  return { author, followers: followers.length, ms: now() - t201 };
}

/**
 * Probe authors spread over the follower counts: the i-th of `count` is the user at rank
 * i·n/count by followers (most followed first), so the probes cover the hot users and the tail.
 */
export function probeAuthors(followerCounts: readonly number[], count: number): number[] {
  const byFollowers = followerCounts.map((c, u) => ({ c, u })).sort((a, b) => b.c - a.c || a.u - b.u);
  return Array.from({ length: count }, (_, i) => byFollowers[Math.floor((i * byFollowers.length) / count)]!.u);
}
