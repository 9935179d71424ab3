/** Deterministic originals for the rollups scenario (bench/scenarios/rollups.ts): 3 verbs, 200 actors, times over the last `spreadMinutes`. */
import { rangeKeyOf } from '../functions/core/keys.js';
import { isoFromTicks } from '../functions/core/ticks.js';

const VERBS = ['bench_play', 'bench_buy', 'bench_view'] as const;

export function originalFor(i: number, nowMs: number, spreadMinutes: number) {
  const actor = `bench-${i % 200}`;
  const ticks = BigInt(nowMs - ((i * 7919) % (spreadMinutes * 60_000))) * 1_000_000n + BigInt(i % 1_000_000);
  const rk = rangeKeyOf(ticks, BigInt(i));
  const verb = VERBS[i % 3]!;
  return {
    pk: actor, rk, id: `${actor}:${rk}`, actor, author: actor, verb, time: isoFromTicks(ticks),
    attributes: verb === 'bench_play' ? { score: i % 1000 } : verb === 'bench_buy' ? { amount: (i % 50) + 0.5 } : {},
  };
}
