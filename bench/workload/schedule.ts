/**
 * Open-loop request schedules (pure): slot i of rate r is sent at i/r s whether or not earlier
 * requests have answered, and latency counts from that time, so a stall shows in every request due
 * during it (a closed loop would send fewer and report one slow answer: coordinated omission). The
 * mix is exact per block: weights 6/3/1 put 6, 3 and 1 of each 10 slots, in a seeded order.
 */
import { seededRandom } from './random.js';

export type RequestKind = 'home' | 'timeline' | 'post' | 'follow';

export interface Scheduled {
  /** Send time, ms after the schedule's start. */
  readonly atMs: number;
  readonly kind: RequestKind;
  /** 0, 1, 2 … among the requests of its kind (the n-th post posts the n-th planned post). */
  readonly ordinal: number;
  /** Who sends it (user index). */
  readonly user: number;
  /** Whose timeline is read, or who is followed (user index). */
  readonly target?: number;
}

export interface MixPlan {
  readonly ratePerSecond: number;
  readonly seconds: number;
  /** Integer weights per kind, e.g. { home: 6, timeline: 3, post: 1 }. */
  readonly weights: Partial<Record<Exclude<RequestKind, 'follow'>, number>>;
  readonly users: number;
  readonly seed: number;
  /** The author of the n-th post (posts come from the planned list, so the author is fixed). */
  readonly postAuthor: (ordinal: number) => number;
}

export function openLoopSchedule(plan: MixPlan): Scheduled[] {
  const rng = seededRandom(plan.seed);
  const block = Object.entries(plan.weights).flatMap(([kind, w]) => Array.from({ length: w }, () => kind as RequestKind));
  if (block.length === 0) throw new Error('a mix needs at least one weight');
  const total = Math.round(plan.ratePerSecond * plan.seconds);
  const ordinals: Record<string, number> = {};
  const out: Scheduled[] = [];
  let kinds: RequestKind[] = [];
  for (let i = 0; i < total; i++) {
    if (kinds.length === 0) kinds = rng.shuffle(block);
    const kind = kinds.pop()!;
    const ordinal = (ordinals[kind] = (ordinals[kind] ?? -1) + 1);
    const atMs = (i * 1000) / plan.ratePerSecond;
    if (kind === 'post') out.push({ atMs, kind, ordinal, user: plan.postAuthor(ordinal) });
    else if (kind === 'timeline') out.push({ atMs, kind, ordinal, user: rng.int(0, plan.users - 1), target: rng.int(0, plan.users - 1) });
    else out.push({ atMs, kind, ordinal, user: rng.int(0, plan.users - 1) });
  }
  return out;
}

/** `followers` following `target` at a constant rate from `startMs`, in the given order. */
export function followBurst(opts: { startMs: number; ratePerSecond: number; followers: readonly number[]; target: number }): Scheduled[] {
  return opts.followers.map((user, ordinal) => ({
    atMs: opts.startMs + (ordinal * 1000) / opts.ratePerSecond,
    kind: 'follow',
    ordinal,
    user,
    target: opts.target,
  }));
}

/** Several schedules as one, by send time (stable: equal times keep their list order). */
export function mergeSchedules(...lists: readonly (readonly Scheduled[])[]): Scheduled[] {
  return lists.flat().sort((a, b) => a.atMs - b.atMs);
}
