/**
 * Post latency vs followers: POST /activities for authors with 0, 1,000 and 5,000 followers, each
 * post's fan-out drained and the handlers quiet before the next; beside it the naive baseline
 * (bench/naive-baseline.ts), which writes every copy inside the request.
 */
import { type CapacityTotals, timeSplit } from '../capacity.js';
import { waitForCopies } from '../copies.js';
import { authorWithFollowers, benchActivity, postActivity, quiesce, uid } from '../fixtures.js';
import { callNaive, naiveFollow, startNaiveServer } from '../naive-baseline.js';
import { atLeast, atMost, type Figure, figureOf, progress } from '../report.js';
import { median, percentile, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const fig = figureOf('post latency');
const PLAN = [
  { followers: 0, posts: 20, naive: 5 },
  { followers: 1000, posts: 20, naive: 3 },
  { followers: 5000, posts: 12, naive: 3 },
] as const;

interface Samples {
  ms: number[];
  spent: CapacityTotals[];
}

export const postLatency: Scenario = {
  id: 'post',
  title: 'POST /activities p50/p99 at 0 / 1k / 5k followers, vs the naive synchronous baseline',
  async run(ctx) {
    const figures: Figure[] = [];
    const sets = new Map<number, { author: string; followers: string[] }>();
    for (const { followers } of PLAN) sets.set(followers, await authorWithFollowers(ctx, followers));
    for (let i = 0; i < 3; i++) await postActivity(ctx, uid('warm-up'), benchActivity(i)); // JIT, connections, module loads
    await quiesce(ctx, 300);

    // Rounds: each author posts once per round, so noise over the run spreads over all follower counts alike.
    const ours = new Map<number, Samples>(PLAN.map((s) => [s.followers, { ms: [], spent: [] }]));
    const rounds = Math.max(...PLAN.map((s) => s.posts));
    for (let r = 0; r < rounds; r++) {
      for (const step of PLAN.filter((s) => r < s.posts)) {
        progress(`  post: round ${r + 1}/${rounds}, ${step.followers} followers`);
        const { author, followers } = sets.get(step.followers)!;
        const { value: res, spent } = await ctx.handlerCapacity.measure(() => postActivity(ctx, author, benchActivity(r)));
        ours.get(step.followers)!.ms.push(res.ms);
        ours.get(step.followers)!.spent.push(spent);
        await waitForCopies(ctx, [{ rk: res.rangeKey, owners: followers }]);
        await quiesce(ctx, 300);
      }
    }
    const split = (o: Samples) => timeSplit(o.ms.map((ms, i) => ({ ms, spent: o.spent[i]! })));
    for (const step of PLAN) {
      const o = ours.get(step.followers)!;
      figures.push(
        fig(`ours p50 at ${step.followers} followers (${step.posts} posts)`, round(median(o.ms)), 'ms', { note: `handler's DynamoDB time, p50s: ${split(o)}` }),
        fig(`ours p99 at ${step.followers} followers`, round(percentile(o.ms, 99)), 'ms'),
      );
    }

    // The naive baseline: its own authors, the same follower ids.
    const naive = new Map<number, number[]>();
    const server = await startNaiveServer(ctx);
    try {
      for (const step of PLAN) {
        const naiveAuthor = uid('naive-author', step.followers);
        await naiveFollow(ctx, naiveAuthor, sets.get(step.followers)!.followers);
        const ms: number[] = [];
        for (let i = 0; i < step.naive; i++) {
          progress(`  post: naive baseline, ${step.followers} followers, post ${i + 1}/${step.naive}`);
          const res = await callNaive(ctx, server, naiveAuthor, benchActivity(i));
          if (res.status !== 201) throw new Error(`naive POST: ${res.status} ${JSON.stringify(res.body)}`);
          ms.push(res.ms);
          await quiesce(ctx, 300); // its copies stream through our outbox and rollups too
        }
        naive.set(step.followers, ms);
        figures.push(
          fig(`naive p50 at ${step.followers} followers (${step.naive} posts)`, round(median(ms)), 'ms'),
          fig(`naive p99 at ${step.followers} followers`, round(percentile(ms, 99)), 'ms'),
        );
      }
    } finally {
      await server.stop();
    }
    const [o0, o5] = [ours.get(0)!, ours.get(5000)!];
    const r = median(o5.ms) / median(o0.ms);
    const calls = (o: Samples) => JSON.stringify(o.spent[Math.floor(o.spent.length / 2)]?.calls ?? {});
    const note = `inside the request at 0 followers: ${calls(o0)}, ${split(o0)}; at 5k: ${calls(o5)}, ${split(o5)}`;
    const naiveRatio = median(naive.get(5000)!) / median(o5.ms);
    figures.push(
      fig('ours(5k) / ours(0) (p50)', round(r), '×', { ...atMost(r, 1.2), note }),
      fig('naive(5k) / ours(5k) (p50)', round(naiveRatio, 1), '×', atLeast(naiveRatio, 50)),
    );
    return figures;
  },
};
