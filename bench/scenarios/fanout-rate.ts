/**
 * Scenario 2 — fan-out rate. Time from the 201 of a post by an author with 5,000 followers to the
 * last follower copy (queue drained + every copy verified with BatchGetItem), as copies/s; next
 * to a raw BatchWriteItem loop writing 5,000 items of the copy's exact size at the same
 * concurrency to the same DynamoDB Local. Runs alternate ours/raw so noise hits both alike.
 */
import { nowTicks } from '../../functions/core/ticks.js';
import type { CapacityTotals } from '../capacity.js';
import type { BenchContext } from '../context.js';
import {
  authorWithFollowers,
  benchActivity,
  hasRoute,
  itemLike,
  notMeasured,
  now,
  quiesce,
  rawBatchWrite,
  sleep,
  storedShapes,
  uid,
  waitForCopies,
} from '../fixtures.js';
import { type Figure, progress } from '../report.js';
import { median, round } from '../stats.js';
import type { Scenario } from './index.js';

const S = 'fan-out rate';
const FOLLOWERS = 5000;
const REPS = 3;
/**
 * BatchWriteItem requests the fan-out has in flight: the local SQS event source runs 4 pollers
 * (local/stack.ts `sqsConcurrency`), each handling one job at a time.
 */
export const FANOUT_WRITE_CONCURRENCY = 4;

export const fanoutRate: Scenario = {
  id: 'fanout',
  title: `copies/s from 201 to the last of ${FOLLOWERS} copies, vs a raw BatchWriteItem loop`,
  async run(ctx) {
    if (!hasRoute('POST', '/activities') || !hasRoute('PUT', '/following/{userId}')) {
      return [notMeasured(S, 'ours / raw', 'posting or following is not in this build', '≥ 0.85')];
    }
    const { author, followers } = await authorWithFollowers(ctx, FOLLOWERS);
    const { copy } = await storedShapes(ctx);
    const ours: number[] = [];
    const raw: number[] = [];
    const latency: number[] = [];
    const inFlight: number[] = [];
    const firstWriteAfter: number[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      progress(`  fanout: run ${rep + 1}/${REPS}`);
      await quiesce(ctx, 300);
      const res = await ctx.call('POST', '/activities', author, benchActivity(1000 + rep));
      const t201 = now();
      const before = ctx.handlerCapacity.snapshot();
      const firstWrite = watchFirstBatchWrite(ctx, before);
      if (res.status !== 201) throw new Error(`POST /activities: ${res.status}`);
      const drained = await waitForCopies(ctx, followers, String(res.body.rangeKey));
      if (drained.missing) throw new Error(`fan-out left ${drained.missing} copies missing`);
      ours.push(FOLLOWERS / ((drained.doneAt - t201) / 1000));
      latency.push(drained.doneAt - t201);
      const spent = ctx.handlerCapacity.since(before);
      // BatchWriteItem requests in flight on average over the window (Σ call time / wall time).
      inFlight.push((spent.ms.BatchWriteItemCommand ?? 0) / (drained.doneAt - t201));
      firstWriteAfter.push((await firstWrite) - t201);

      await quiesce(ctx, 300);
      const ticks = nowTicks();
      const items = followers.map((_, i) => itemLike(copy, uid(`raw-${rep}`, i), ticks));
      const t0 = now();
      await rawBatchWrite(ctx, ctx.stack.tableNames.feed, items, FANOUT_WRITE_CONCURRENCY);
      raw.push(FOLLOWERS / ((now() - t0) / 1000));
    }
    const ratio = median(ours) / median(raw);
    const figures: Figure[] = [
      { scenario: S, metric: `ours: 201 → last of ${FOLLOWERS} copies (${REPS} posts, p50)`, value: round(median(latency)), unit: 'ms' },
      { scenario: S, metric: 'ours copies/s (p50)', value: Math.round(median(ours)), unit: 'copies/s' },
      { scenario: S, metric: `raw BatchWriteItem copies/s (${FANOUT_WRITE_CONCURRENCY} in flight, same item size, p50)`, value: Math.round(median(raw)), unit: 'items/s' },
      {
        scenario: S,
        metric: 'ours / raw',
        value: round(ratio),
        unit: '×',
        target: '≥ 0.85',
        met: ratio >= 0.85,
        note:
          ratio >= 0.85
            ? undefined
            : `201 → first copy write ${round(median(firstWriteAfter), 0)} ms (stream poll + outbox + queue); BatchWriteItem requests in flight on average ${round(median(inFlight), 1)} vs ${FANOUT_WRITE_CONCURRENCY} for raw`,
      },
    ];
    return figures;
  },
};

/** Resolves with the time the handlers' first BatchWriteItem after `before` completes (polls the meter). */
async function watchFirstBatchWrite(ctx: BenchContext, before: CapacityTotals): Promise<number> {
  for (let i = 0; i < 3000; i++) {
    if ((ctx.handlerCapacity.since(before).calls.BatchWriteItemCommand ?? 0) > 0) return now();
    await sleep(5);
  }
  return now();
}
