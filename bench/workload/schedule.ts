/**
 * Open-loop request schedules (pure). Each request has a send time fixed in advance — slot i of a
 * constant rate r is at i/r seconds — and the driver sends it then whether or not earlier requests
 * have answered. Latency is measured from that scheduled time, so a stall shows up in every request
 * that should have been sent during it (a closed loop would wait, send fewer requests and report
 * only the one slow answer: coordinated omission).
 *
 * The mix is exact per block: with weights home 6 / timeline 3 / post 1, every 10 consecutive slots
 * hold 6, 3 and 1 of them, in a seeded random order.
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
