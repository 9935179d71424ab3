/**
 * What the probe handler's instances (test/support/instance-probe-handler.ts) report: how many
 * instances started, and the most invocations one instance — one evaluation of the handler module —
 * ever had in flight at once. This module is imported by the handler entry, so every instance of
 * this process shares it (local/handlers.ts). Invocations wait at a barrier that opens once
 * `together` of them are in flight: the overlap is certain, not a matter of timing.
 */
import { perInstance } from '../../functions/platform/instance-scope.js';

let together = 1;
let instances = 0;
let started = 0;
let inFlight = 0;
let mostInFlight = 0;
let mostInOneInstance = 0;
let ended = 0;
let opened: () => void;
let barrier: Promise<void>;
const endWaiters = new Set<() => void>();
/** A cache made per instance (platform/instance-scope.ts), as the services make theirs: which one each instance's invocations got. */
const cacheOf = perInstance(() => ({}));
let cachesSeen = new Map<number, Set<object>>();

/** Starts a run: invocations hold until `n` are in flight together. */
export function resetProbe(n: number): void {
  together = n;
  instances = started = inFlight = mostInFlight = mostInOneInstance = ended = 0;
  cachesSeen = new Map();
  barrier = new Promise<void>((resolve) => (opened = resolve));
}
resetProbe(1);

/** Called by each instance at its load (a cold start); returns its number. */
export const instanceStarted = (): number => ++instances;

/**
 * Called by an invocation as it starts, with the invocations its instance has in flight (itself
 * included) and the instance's number; resolves once the barrier is open.
 */
export async function invocationRuns(inInstance: number, instance: number): Promise<void> {
  (cachesSeen.get(instance) ?? cachesSeen.set(instance, new Set()).get(instance)!).add(cacheOf());
  started++;
  inFlight++;
  mostInFlight = Math.max(mostInFlight, inFlight);
  mostInOneInstance = Math.max(mostInOneInstance, inInstance);
  if (started >= together) opened();
  await barrier;
}

/** Called by an invocation as it ends. */
export function invocationEnded(): void {
  inFlight--;
  ended++;
  for (const wake of endWaiters) wake();
}

/** Resolves once `n` invocations have ended. */
export async function invocationsEnded(n: number): Promise<void> {
  while (ended < n) {
    await new Promise<void>((resolve) => {
      const wake = () => {
        endWaiters.delete(wake);
        resolve();
      };
      endWaiters.add(wake);
    });
  }
}

export const probeReport = () => ({
  instances,
  mostInFlight,
  mostInOneInstance,
  ended,
  /** Per instance, how many per-instance caches its invocations got (1 each), and how many there were in all. */
  cachesPerInstance: [...cachesSeen.values()].map((c) => c.size),
  caches: new Set([...cachesSeen.values()].flatMap((c) => [...c])).size,
});
