/**
 * Probes: a post whose delivery is timed from its 201 until every follower has its copy (polled
 * with keys-only BatchGetItem every POLL_MS: a sample of followers until they all have it, then the
 * copies still missing, so the polling adds little load while the fan-out runs). A probe has no
 * mentions, so the only job it starts is its fan-out.
 */
import type { BenchContext } from '../context.js';
import { missingCopies, now, sleep } from '../fixtures.js';

const POLL_MS = 20;

export interface ProbeResult {
  readonly author: string;
  readonly followers: number;
  /** ms from the 201 to the poll that found the last copy. */
  readonly ms: number;
  /** ms from the 201 to the poll that first found a copy (the fan-out had started: stream, outbox and queue behind it). */
  readonly firstMs: number;
}

export async function probe(ctx: BenchContext, author: string, followers: readonly string[], tag: string, timeoutMs = 60_000): Promise<ProbeResult> {
  const res = await ctx.call('POST', '/activities', author, { verb: 'post', object: `probe:${tag}`, content: `probe ${tag}: is this in my followers' feeds yet?` });
  const t201 = now();
  if (res.status !== 201) throw new Error(`probe post by ${author}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  const rk = String(res.body.rangeKey);
  // A sample first (cheap while the fan-out runs), then everyone still missing.
  const sample = [...new Set(Array.from({ length: Math.min(8, followers.length) }, (_, i) => followers[Math.floor((i * followers.length) / 8)]!).concat(followers.slice(-1)))];
  let firstMs: number | undefined;
  for (let missing = sample, phase = 0; phase < 2; missing = [...followers], phase++) {
    while (missing.length) {
      if (now() - t201 > timeoutMs) throw new Error(`probe ${tag}: ${missing.length} of ${followers.length} copies still missing after ${timeoutMs} ms`);
      const before = missing.length;
      missing = await missingCopies(ctx, missing, rk);
      if (missing.length < before) firstMs ??= now() - t201;
      if (missing.length) await sleep(POLL_MS);
    }
  }
  const ms = now() - t201;
  return { author, followers: followers.length, ms, firstMs: firstMs ?? ms };
}

/**
 * Probe authors spread over the follower counts: the i-th of `count` is the user at rank
 * i·n/count by followers (most followed first), so the probes cover the hot users and the tail.
 */
export function probeAuthors(followerCounts: readonly number[], count: number): number[] {
  const byFollowers = followerCounts.map((c, u) => ({ c, u })).sort((a, b) => b.c - a.c || a.u - b.u);
  return Array.from({ length: count }, (_, i) => byFollowers[Math.floor((i * byFollowers.length) / count)]!.u);
}
