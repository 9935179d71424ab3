/**
 * Scenario 2 — fan-out rate. Time from the 201 of a post by an author with 5,000 followers to the
 * last follower copy (queue drained + every copy verified with BatchGetItem), as copies/s; next
 * to a raw BatchWriteItem loop writing 5,000 copies of that same post (the stored copy read back,
 * re-keyed with homeFeedPartition to owners whose ids have the followers' length, so every item
 * has exactly the copies' size) to the same DynamoDB Local. Runs alternate ours/raw so noise hits
 * both alike.
 *
 * Concurrency: the fan-out worker runs 4 pollers (local/stack.ts `sqsConcurrency`), each job
 * writing its page of 500 with BatchWriteItem 4 calls in flight (platform/dynamo/batch-write.ts),
 * so up to 16 calls are in flight once the page jobs overlap. The raw loop runs at 4 and at 16 in
 * flight; the target compares with the faster of the two (the ceiling at either concurrency).
 * The fan-out's cost includes its trim attempts (FEED_MAX_ITEMS = N: about 2 in N copies start one).
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { homeFeedKey, homeFeedPartition } from '../../functions/model/feed-copy.js';
import { type CapacityTotals, sumTags } from '../capacity.js';
import { type BenchContext, isTrimTag } from '../context.js';
import { attributes, authorWithFollowers, benchActivity, now, quiesce, rawBatchWrite, sleep, stackFeedPolicy } from '../fixtures.js';
import { waitForCopies } from '../copies.js';
import { atLeast, type Figure, progress } from '../report.js';
import { median, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'fan-out rate';
const FOLLOWERS = 5000;
const REPS = 3;
/** BatchWriteItem calls in flight: one job's lanes (batch-write.ts default) … */
const FANOUT_WRITE_CONCURRENCY = 8;
/** … and about what the worker's 4 pollers keep in flight once page jobs overlap (measured below). */
const FANOUT_MAX_WRITE_CONCURRENCY = 16;

export const fanoutRate: Scenario = {
  id: 'fanout',
  title: `copies/s from 201 to the last of ${FOLLOWERS} copies, vs a raw BatchWriteItem loop`,
  async run(ctx) {
    const { author, followers } = await authorWithFollowers(ctx, FOLLOWERS);
    const ours: number[] = [];
    const worker: number[] = [];
    const raw4: number[] = [];
    const raw16: number[] = [];
    const latency: number[] = [];
    const inFlight: number[] = [];
    const peaks: number[] = [];
    const firstWriteAfter: number[] = [];
    const spentAll: CapacityTotals[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      progress(`  fanout: run ${rep + 1}/${REPS}`);
      await quiesce(ctx, 300);
      ctx.handlerCapacity.resetPeaks();
      const res = await ctx.call('POST', '/activities', author, benchActivity(1000 + rep));
      const t201 = now();
      const before = ctx.handlerCapacity.snapshot();
      const firstWrite = watchFirstBatchWrite(ctx, before);
      if (res.status !== 201) throw new Error(`POST /activities: ${res.status}`);
      const rk = BigInt(res.body.rangeKey);
      const { doneAt } = await waitForCopies(ctx, [{ rk: String(rk), owners: followers }]);
      ours.push(FOLLOWERS / ((doneAt - t201) / 1000));
      latency.push(doneAt - t201);
      const firstAt = await firstWrite;
      firstWriteAfter.push(firstAt - t201);
      worker.push(FOLLOWERS / ((doneAt - firstAt) / 1000));
      const spent = ctx.handlerCapacity.since(before);
      // BatchWriteItem requests in flight on average while the worker writes (Σ call time / wall time), and at most.
      inFlight.push((spent.ms.BatchWriteItemCommand ?? 0) / (doneAt - firstAt));
      peaks.push(spent.peaks.BatchWriteItemCommand ?? 0);
      await quiesce(ctx, 300);
      spentAll.push(ctx.handlerCapacity.since(before));

      // The raw ceiling: the same post's stored copy, to owners whose ids have the followers' length.
      const { Item: copy } = await ctx.dynamo.send(
        new GetItemCommand({ TableName: ctx.stack.tableNames.feed, Key: attributes(homeFeedKey(followers[0]!, rk)) }),
      );
      if (!copy) throw new Error('no stored copy to model the raw items on');
      for (const concurrency of rep % 2 ? [FANOUT_MAX_WRITE_CONCURRENCY, FANOUT_WRITE_CONCURRENCY] : [FANOUT_WRITE_CONCURRENCY, FANOUT_MAX_WRITE_CONCURRENCY]) {
        const items = followers.map((f) => ({ ...copy, pk: { S: homeFeedPartition(rawOwnerLike(f, concurrency)) } }));
        await quiesce(ctx, 300);
        const t0 = now();
        await rawBatchWrite(ctx, ctx.stack.tableNames.feed, items, concurrency);
        (concurrency === FANOUT_WRITE_CONCURRENCY ? raw4 : raw16).push(FOLLOWERS / ((now() - t0) / 1000));
      }
    }
    const rawBest = Math.max(median(raw4), median(raw16));
    const ratio = median(worker) / rawBest;
    const endToEnd = median(ours) / rawBest;
    const typical = spentAll[Math.floor(spentAll.length / 2)]!;
    const trims = sumTags(typical, isTrimTag);
    const attempts = typical.tags['head read']?.calls ?? 0;
    const policy = stackFeedPolicy(ctx);
    const figures: Figure[] = [
      { scenario: S, metric: `ours: 201 → last of ${FOLLOWERS} copies (${REPS} posts, p50)`, value: round(median(latency)), unit: 'ms' },
      { scenario: S, metric: 'ours copies/s, 201 → last copy (p50)', value: Math.round(median(ours)), unit: 'copies/s' },
      { scenario: S, metric: 'worker copies/s, first copy write → last copy (p50)', value: Math.round(median(worker)), unit: 'copies/s' },
      {
        scenario: S,
        metric: `raw BatchWriteItem copies/s (${FANOUT_WRITE_CONCURRENCY} in flight, same item size, p50)`,
        value: Math.round(median(raw4)),
        unit: 'items/s',
      },
      {
        scenario: S,
        metric: `raw BatchWriteItem copies/s (${FANOUT_MAX_WRITE_CONCURRENCY} in flight, same item size, p50)`,
        value: Math.round(median(raw16)),
        unit: 'items/s',
      },
      {
        scenario: S,
        metric: `trim attempts during one fan-out (FEED_MAX_ITEMS ${policy.maxItems ?? 'off'}: chance ${round(policy.attemptChance, 4)} per copy)`,
        value: attempts,
        unit: 'attempts',
        note: `${trims.calls} calls, ${round(trims.read, 2)} RCU, ${round(trims.write, 2)} WCU (feeds this small hold far fewer than N: nothing to delete); all the fan-out's calls ${JSON.stringify(typical.calls)}`,
      },
      {
        scenario: S,
        metric: `fan-out rate: worker copies/s (first copy write → last) / raw (the faster of ${FANOUT_WRITE_CONCURRENCY} and ${FANOUT_MAX_WRITE_CONCURRENCY} in flight)`,
        value: round(ratio),
        unit: '×',
        ...atLeast(ratio, 0.85),
        note: `vs raw at ${FANOUT_WRITE_CONCURRENCY} in flight ${round(median(worker) / median(raw4))}×, at ${FANOUT_MAX_WRITE_CONCURRENCY} ${round(median(worker) / median(raw16))}×; BatchWriteItem in flight on average ${round(median(inFlight), 1)}, at most ${median(peaks)}; both sides metered (ReturnConsumedCapacity), same item size, same run`,
      },
      {
        scenario: S,
        metric: 'end to end: 201 → last copy / raw (the faster)',
        value: round(endToEnd),
        unit: '×',
        note: `201 → first copy write ${round(median(firstWriteAfter), 0)} ms: the stream poll (Lambda polls a shard about 4× a second; the local poller backs off to 200 ms), the outbox and the queue — a latency paid once per post, before the rate above`,
      },
    ];
    return figures;
  },
};

/** A raw-baseline owner id of the same length as follower `f` (so its copy has the same size). */
function rawOwnerLike(f: string, concurrency: number): string {
  const tag = `raw${concurrency}-`;
  return `${tag}${f.slice(tag.length)}`;
}

/** Resolves with the time the handlers' first BatchWriteItem after `before` completes (polls the meter). */
async function watchFirstBatchWrite(ctx: BenchContext, before: CapacityTotals): Promise<number> {
  for (let i = 0; i < 3000; i++) {
    if ((ctx.handlerCapacity.since(before).calls.BatchWriteItemCommand ?? 0) > 0) return now();
    await sleep(5);
  }
  return now();
}
