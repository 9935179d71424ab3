/**
 * Two floors of the workload's follows figure, timed at the API phase's concurrency: a bare follow
 * transaction between fresh users (follow-store createEdge: no HTTP, no reads, no jobs) and an API
 * request that does less than any follow (`GET /me`: the JWT check and two reads, nothing written).
 */
import { nowTicks } from '../../functions/platform/clock.js';
import { createEdge } from '../../functions/stores/follow-store.js';
import type { BenchContext } from '../context.js';
import { now } from '../fixtures.js';
import { pool } from '../stats.js';

/** Seconds `count` bare follow transactions between fresh users take at `inFlight`. */
export async function bareFollowSeconds(count: number, inFlight: number, nextGhost: () => string): Promise<number> {
  const pairs = Array.from({ length: count }, () => [nextGhost(), nextGhost()] as const);
  const t0 = now();
  await pool(count, inFlight, async (i) => {
    const [follower, followee] = pairs[i]!;
    const outcome = await createEdge(follower, followee, nowTicks(), false, Number.MAX_SAFE_INTEGER, false);
    if (outcome !== 'done') throw new Error(`bare follow ${follower} → ${followee}: ${outcome}`);
  });
  return (now() - t0) / 1000;
}

/** Seconds `count` `GET /me` requests by fresh users take at `inFlight` (their tokens minted first). */
export async function readOnlyRequestSeconds(ctx: BenchContext, count: number, inFlight: number, nextGhost: () => string): Promise<number> {
  const users = Array.from({ length: count }, nextGhost);
  for (const u of users) await ctx.token(u);
  const t0 = now();
  await pool(count, inFlight, async (i) => {
    const res = await ctx.call('GET', '/me', users[i]!);
    if (res.status !== 200) throw new Error(`GET /me as ${users[i]}: ${res.status}`);
  });
  return (now() - t0) / 1000;
}
