/**
 * Scenario 1 — post latency vs followers. POST /activities through the local HTTP API for authors
 * with 0, 1,000 and 5,000 followers (follows created through PUT /following, 16 in flight), each
 * post's fan-out drained (every copy verified) and the handlers quiet before the next post, so
 * background fan-out does not pollute the latency. Next to it the naive baseline (seed 002's
 * first version, bench/naive-baseline.ts), which writes every copy inside the request.
 */
import { type CapacityTotals, timeSplit } from '../capacity.js';
import { authorWithFollowers, benchActivity, followMethod, now, quiesce, uid } from '../fixtures.js';
import { waitForCopies } from '../copies.js';
import { callNaive, naiveFollow, startNaiveServer } from '../naive-baseline.js';
import { atLeast, atMost, type Figure, progress } from '../report.js';
import { median, percentile, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'post latency';
const PLAN = [
  { followers: 0, posts: 20, naive: 5 },
  { followers: 1000, posts: 20, naive: 3 },
  { followers: 5000, posts: 12, naive: 3 },
] as const;

export const postLatency: Scenario = {
  id: 'post',
  title: 'POST /activities p50/p99 at 0 / 1k / 5k followers, vs the naive synchronous baseline',
  async run(ctx) {
    const figures: Figure[] = [];
    const ours = new Map<number, { ms: number[]; spent: CapacityTotals[] }>();
    const naive = new Map<number, number[]>();
    // The real follow path's rate, for the record (the big sets are seeded, see fixtures.ts).
    const t0 = now();
    await authorWithFollowers(ctx, 200); // shared with the cost scenario
    figures.push({ scenario: S, metric: `set-up: 200 follows by ${followMethod(200)}`, value: Math.round(200 / ((now() - t0) / 1000)), unit: 'follows/s' });
    const sets = new Map<number, { author: string; followers: string[] }>();
    for (const step of PLAN) {
      const t0 = now();
      sets.set(step.followers, await authorWithFollowers(ctx, step.followers));
      if (step.followers) {
        const s = (now() - t0) / 1000;
        figures.push({
          scenario: S,
          metric: `set-up: ${step.followers} follows by ${followMethod(step.followers)}`,
          value: Math.round(step.followers / s),
          unit: 'follows/s',
        });
      }
    }
    // Warm-up (JIT, connections, first-call module loads), not measured.
    for (let i = 0; i < 3; i++) await ctx.call('POST', '/activities', uid('warm-up'), benchActivity(i));
    await quiesce(ctx, 300);

    // Rounds: each author posts once per round while it has posts left, so machine noise over the
    // run spreads over all follower counts alike instead of landing on whichever ran first.
    for (const step of PLAN) ours.set(step.followers, { ms: [], spent: [] });
    const rounds = Math.max(...PLAN.map((s) => s.posts));
    for (let round = 0; round < rounds; round++) {
      for (const step of PLAN) {
        if (round >= step.posts) continue;
        progress(`  post: round ${round + 1}/${rounds}, ${step.followers} followers`);
        const { author, followers } = sets.get(step.followers)!;
        const o = ours.get(step.followers)!;
        const before = ctx.handlerCapacity.snapshot();
        const res = await ctx.call('POST', '/activities', author, benchActivity(round));
        o.spent.push(ctx.handlerCapacity.since(before));
        if (res.status !== 201) throw new Error(`POST /activities: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        o.ms.push(res.ms);
        await waitForCopies(ctx, [{ rk: String(res.body.rangeKey), owners: followers }]);
        await quiesce(ctx, 300);
      }
    }
    for (const step of PLAN) {
      const { ms, spent } = ours.get(step.followers)!;
      figures.push(
        {
          scenario: S,
          metric: `ours p50 at ${step.followers} followers (${step.posts} posts)`,
          value: round(median(ms)),
          unit: 'ms',
          note: `handler's DynamoDB time, p50s: ${timeSplit(ms.map((m, i) => ({ ms: m, spent: spent[i]! })))}`,
        },
        { scenario: S, metric: `ours p99 at ${step.followers} followers`, value: round(percentile(ms, 99)), unit: 'ms' },
      );
    }

    // The naive baseline: its own authors (ours has no followers for them), the same follower ids.
    const server = await startNaiveServer(ctx);
    try {
      for (const step of PLAN) {
        const { followers } = sets.get(step.followers)!;
        const naiveAuthor = uid('naive-author', step.followers);
        if (followers.length) await naiveFollow(ctx, naiveAuthor, followers);
        const nms: number[] = [];
        for (let i = 0; i < step.naive; i++) {
          progress(`  post: naive baseline, ${step.followers} followers, post ${i + 1}/${step.naive}`);
          const res = await callNaive(ctx, server, naiveAuthor, benchActivity(i));
          if (res.status !== 201) throw new Error(`naive POST: ${res.status} ${JSON.stringify(res.body)}`);
          nms.push(res.ms);
          await quiesce(ctx, 300); // its copies stream through our outbox and rollups too
        }
        naive.set(step.followers, nms);
        figures.push(
          { scenario: S, metric: `naive p50 at ${step.followers} followers (${step.naive} posts)`, value: round(median(nms)), unit: 'ms' },
          { scenario: S, metric: `naive p99 at ${step.followers} followers`, value: round(percentile(nms, 99)), unit: 'ms' },
        );
      }
    } finally {
      await server.stop();
    }
    figures.push(...ratios(ours, naive));
    return figures;
  },
};

function ratios(ours: Map<number, { ms: number[]; spent: CapacityTotals[] }>, naive: Map<number, number[]>): Figure[] {
  const [o0, o5, n5] = [ours.get(0)!, ours.get(5000)!, naive.get(5000)!];
  const r = median(o5.ms) / median(o0.ms);
  const calls = (s: CapacityTotals[]) => JSON.stringify(s[Math.floor(s.length / 2)]?.calls ?? {});
  const split = (o: { ms: number[]; spent: CapacityTotals[] }) => timeSplit(o.ms.map((ms, i) => ({ ms, spent: o.spent[i]! })));
  const note = `inside the request at 0 followers: ${calls(o0.spent)}, ${split(o0)}; at 5k: ${calls(o5.spent)}, ${split(o5)}`;
  const naiveRatio = median(n5) / median(o5.ms);
  return [
    { scenario: S, metric: 'ours(5k) / ours(0) (p50)', value: round(r), unit: '×', ...atMost(r, 1.2), note },
    { scenario: S, metric: 'naive(5k) / ours(5k) (p50)', value: round(naiveRatio, 1), unit: '×', ...atLeast(naiveRatio, 50) },
  ];
}
