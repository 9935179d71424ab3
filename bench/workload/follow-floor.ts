/**
 * Two floors of the follows figure, timed on the same JVM in the same run at the API phase's
 * concurrency and scaled to its follow count, beside the ratio the API reached:
 *   - a follow that were nothing but its one transaction (stores/follow-store.ts createEdge: the
 *     edge, both list entries, both counters with the limit and pulled conditions, the block, mute
 *     and erase checks) between fresh users — no HTTP, no reads before it, no jobs after it: what
 *     no design that commits a follow in one transaction could beat here;
 *   - an API request that does less than any follow: `GET /me` (the JWT check and two strongly
 *     consistent reads, nothing written, no job) — what no follow through the API could beat here.
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
