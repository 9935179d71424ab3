/**
 * "Until their last job is done": the moment every lane queue is empty (nothing waiting, nothing
 * in flight) and every post's copies are in its followers' feeds. Polled every 50 ms; a post's
 * jobs are queued by the stream outbox after its 201, so an empty queue alone could be a moment
 * before the outbox's last enqueue — the copies are what proves a post's fan-out ran. A full
 * check of every copy runs once the queues are empty and a sample is complete; it counts from when
 * it started (nothing was queued or running then) only if the queues are still empty after it.
 */
import type { BenchContext } from '../context.js';
import { fanoutBacklog } from '../../local/queue-depth.js';
import { missingCopies, now, sleep } from '../fixtures.js';

export interface Delivery {
  readonly rk: string;
  readonly owners: readonly string[];
}

/** Which of `deliveries` still miss a copy (by owner), 4 BatchGets in flight per post group. */
async function stillMissing(ctx: BenchContext, deliveries: readonly Delivery[]): Promise<Delivery[]> {
  const out: Delivery[] = [];
  for (let i = 0; i < deliveries.length; i += 8) {
    const part = deliveries.slice(i, i + 8);
    const missing = await Promise.all(part.map((d) => missingCopies(ctx, d.owners, d.rk)));
    part.forEach((d, j) => missing[j]!.length && out.push({ rk: d.rk, owners: missing[j]! }));
  }
  return out;
}

/** Resolves with the time (fixtures' `now`) the lanes were drained and every copy present. */
export async function drainedAt(ctx: BenchContext, deliveries: readonly Delivery[] = [], timeoutMs = 600_000): Promise<number> {
  const deadline = now() + timeoutMs;
  const sample = deliveries.length > 24 ? [...deliveries.slice(-16), ...deliveries.filter((_, i) => i % Math.ceil(deliveries.length / 8) === 0)] : deliveries;
  let pendingSample: Delivery[] = [...sample];
  let pending: Delivery[] = [...deliveries];
  while (now() < deadline) {
    const startedAt = now();
    if ((await fanoutBacklog(ctx)) > 0) {
      await sleep(50);
      continue;
    }
    if (pendingSample.length) pendingSample = await stillMissing(ctx, pendingSample);
    if (pendingSample.length === 0) {
      if (pending.length) pending = await stillMissing(ctx, pending);
      if (pending.length === 0 && (await fanoutBacklog(ctx)) === 0) return startedAt;
    }
    await sleep(50);
  }
  throw new Error(`not drained after ${timeoutMs} ms (${pending.length} posts still missing copies)`);
}
