/**
 * Fan-out rate: from the 201 of a post by an author with 5,000 followers to the last copy (every
 * copy verified), as copies/s; beside a raw BatchWriteItem loop writing 5,000 items of exactly the
 * stored copy's size to the same DynamoDB Local, at 8 in flight (one job's batch-write lanes) and
 * at 16 (about what overlapping page jobs reach); the faster counts. Runs alternate ours/raw.
 */
import { homeFeedKey, homeFeedPartition } from '../../functions/model/feed-copy.js';
import { type CapacityTotals, sumTags } from '../capacity.js';
import { type BenchContext, isTrimTag } from '../context.js';
import { waitForCopies } from '../copies.js';
import { authorWithFollowers, benchActivity, now, postActivity, quiesce, rawRate, sleep, stackFeedPolicy, storedItem } from '../fixtures.js';
import { atLeast, figureOf, progress } from '../report.js';
import { median, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const fig = figureOf('fan-out rate');
const FOLLOWERS = 5000;
const REPS = 3;
const CONCURRENCIES = [8, 16] as const;

export const fanoutRate: Scenario = {
  id: 'fanout',
  title: `copies/s from 201 to the last of ${FOLLOWERS} copies, vs a raw BatchWriteItem loop`,
  async run(ctx) {
    const { author, followers } = await authorWithFollowers(ctx, FOLLOWERS);
    const ours: number[] = [];
    const worker: number[] = [];
    const raw: Record<number, number[]> = { 8: [], 16: [] };
    const latency: number[] = [];
    const inFlight: number[] = [];
    const peaks: number[] = [];
    const firstWriteAfter: number[] = [];
    const spentAll: CapacityTotals[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      progress(`  fanout: run ${rep + 1}/${REPS}`);
      await quiesce(ctx, 300);
      ctx.handlerCapacity.resetPeaks();
      const { rangeKey } = await postActivity(ctx, author, benchActivity(1000 + rep));
      const t201 = now();
      const before = ctx.handlerCapacity.snapshot();
      const firstWrite = watchFirstBatchWrite(ctx, before);
      const { doneAt } = await waitForCopies(ctx, [{ rk: rangeKey, owners: followers }]);
      const firstAt = await firstWrite;
      ours.push(FOLLOWERS / ((doneAt - t201) / 1000));
      latency.push(doneAt - t201);
      firstWriteAfter.push(firstAt - t201);
      worker.push(FOLLOWERS / ((doneAt - firstAt) / 1000));
      const spent = ctx.handlerCapacity.since(before);
      // BatchWriteItem calls in flight while the worker writes: on average (Σ call time / wall time), and at most.
      inFlight.push((spent.ms.BatchWriteItemCommand ?? 0) / (doneAt - firstAt));
      peaks.push(spent.peaks.BatchWriteItemCommand ?? 0);
      await quiesce(ctx, 300);
      spentAll.push(ctx.handlerCapacity.since(before));

      const copy = await storedItem(ctx, ctx.stack.tableNames.feed, homeFeedKey(followers[0]!, BigInt(rangeKey)));
      for (const c of rep % 2 ? [...CONCURRENCIES].reverse() : CONCURRENCIES) {
        // Owner ids of the followers' length, so every item has the copy's size.
        const items = followers.map((f) => ({ ...copy, pk: { S: homeFeedPartition(`raw${c}-${f.slice(`raw${c}-`.length)}`) } }));
        await quiesce(ctx, 300);
        raw[c]!.push(await rawRate(ctx, ctx.stack.tableNames.feed, items, c));
      }
    }
    const [raw8, raw16] = [median(raw[8]!), median(raw[16]!)];
    const rawBest = Math.max(raw8, raw16);
    const ratio = median(worker) / rawBest;
    const typical = spentAll[Math.floor(spentAll.length / 2)]!;
    const trims = sumTags(typical, isTrimTag);
    const policy = stackFeedPolicy(ctx);
    return [
      fig(`ours: 201 → last of ${FOLLOWERS} copies (${REPS} posts, p50)`, round(median(latency)), 'ms'),
      fig('ours copies/s, 201 → last copy (p50)', Math.round(median(ours)), 'copies/s'),
      fig('worker copies/s, first copy write → last copy (p50)', Math.round(median(worker)), 'copies/s'),
      fig('raw BatchWriteItem copies/s (8 in flight, same item size, p50)', Math.round(raw8), 'items/s'),
      fig('raw BatchWriteItem copies/s (16 in flight, same item size, p50)', Math.round(raw16), 'items/s'),
      fig(
        `trim attempts during one fan-out (FEED_MAX_ITEMS ${policy.maxItems ?? 'off'}: chance ${round(policy.attemptChance, 4)} per copy)`,
        typical.tags['head read']?.calls ?? 0,
        'attempts',
        {
          note: `${trims.calls} calls, ${round(trims.read)} RCU, ${round(trims.write)} WCU (feeds this small hold far fewer than N: nothing to delete); all the fan-out's calls ${JSON.stringify(typical.calls)}`,
        },
      ),
      fig('fan-out rate: worker copies/s (first copy write → last) / raw (the faster of 8 and 16 in flight)', round(ratio), '×', {
        ...atLeast(ratio, 0.85),
        note: `vs raw at 8 in flight ${round(median(worker) / raw8)}×, at 16 ${round(median(worker) / raw16)}×; BatchWriteItem in flight on average ${round(median(inFlight), 1)}, at most ${median(peaks)}; both sides metered (ReturnConsumedCapacity), same item size, same run`,
      }),
      fig('end to end: 201 → last copy / raw (the faster)', round(median(ours) / rawBest), '×', {
        note: `201 → first copy write ${round(median(firstWriteAfter), 0)} ms: the stream poll (Lambda polls a shard about 4× a second; the local poller backs off to 200 ms), the outbox and the queue — a latency paid once per post, before the rate above`,
      }),
    ];
  },
};

/** When the handlers' first BatchWriteItem after `before` has completed (the meter polled every 5 ms). */
async function watchFirstBatchWrite(ctx: BenchContext, before: CapacityTotals): Promise<number> {
  for (let i = 0; i < 3000 && !ctx.handlerCapacity.since(before).calls.BatchWriteItemCommand; i++) await sleep(5);
  return now();
}
