/**
 * The floor of the follows figure: what a follow would cost if it were nothing but its one
 * transaction (stores/graph-store.ts createEdge: the edge, both list entries, both counters and the
 * block and mute checks), between fresh users, at the API phase's concurrency — no HTTP, no reads
 * before it, no jobs after it. Timed on the same JVM in the same run, and scaled to the API phase's
 * follow count, it gives the ratio no design that commits a follow in one transaction could beat
 * on this machine, beside the ratio the API reached.
 */
import { nowTicks } from '../../functions/platform/clock.js';
import { createEdge } from '../../functions/stores/graph-store.js';
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
