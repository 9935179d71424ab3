/**
 * Deterministic originals for the rollups scenario (bench/scenarios/rollups.ts): 3 verbs, 200
 * actors, times over the last `spreadMinutes`. Built with the model (timeline items, as posting
 * writes them), positioned at their own time (seeded history needs chosen positions).
 */
import type { AttributeValue } from '../functions/model/activity.js';
import { timelineItem } from '../functions/model/timeline-item.js';
import { isoFromTicks } from '../functions/platform/clock.js';

const VERBS = ['bench_play', 'bench_buy', 'bench_view'] as const;

/** The actor index of original `i` (0..199); the scenario maps it to a user id of its run. */
export const actorIndexOf = (i: number) => i % 200;

export function originalFor(i: number, actor: string, nowMs: number, spreadMinutes: number) {
  const ticks = BigInt(nowMs - ((i * 7919) % (spreadMinutes * 60_000))) * 1_000_000n + BigInt(i % 1_000_000);
  const verb = VERBS[i % 3]!;
  const attributes: Record<string, AttributeValue> = verb === 'bench_play' ? { score: i % 1000 } : verb === 'bench_buy' ? { amount: (i % 50) + 0.5 } : {};
  // The discriminator is i: deterministic and unique per original.
  const item = timelineItem(actor, { verb, attributes }, ticks, BigInt(i), isoFromTicks(ticks), undefined);
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)) as typeof item;
}
