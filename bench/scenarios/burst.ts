/**
 * Readers first under a peer's workload (docs/lanes.md): three settings, each on a fresh stack in
 * a process of its own (workload/burst-variant.ts) with the same graph and posts — `off` (every
 * follower copied, queue order), `cold` (the defaults, nobody stamped) and `warm` (everyone
 * stamped) — each a many-authors burst with probes, then the workload's mix.
 */
import { resolve } from 'node:path';
import { runDriver } from '../driver.js';
import { atMost, type Figure, figureOf } from '../report.js';
import { round, stats } from '../stats.js';
import type { VariantPlan, VariantResult } from '../workload/burst-variant.js';
import { env } from '../workload/run.js';
import type { Scenario } from './scenario.js';

const S = 'burst';
const fig = figureOf(S);
const BURST_POSTS = env('BENCH_BURST_POSTS', 9000);
const PROBE_AUTHORS = 24;
/**
 * The mix after the burst, below the workload scenario's 150/s and without its follow burst (300
 * follows at 20/s): either saturates this machine whatever the build (requests time out at 30 s),
 * and a comparison of saturated runs says little.
 */
const MIX_RATE = env('BENCH_BURST_MIX_RATE', 75);
const DEFAULTS = { FANOUT_ACTIVE_WINDOW: '30d', FANOUT_BACKLOG_AFTER: '1s', STAMP_SPREAD: '15m' };
const VARIANTS: Omit<VariantPlan, 'burstPosts' | 'probeAuthors' | 'mixRate'>[] = [
  { name: 'off', env: { ...DEFAULTS, FANOUT_ACTIVE_WINDOW: 'off', FANOUT_BACKLOG_AFTER: 'off' }, warm: false },
  { name: 'cold', env: DEFAULTS, warm: false },
  { name: 'warm', env: DEFAULTS, warm: true },
];

export const burst: Scenario = {
  id: 'burst',
  title: 'readers first: a many-authors burst with probes, and the mix from cold and warm beside `off`',
  async run() {
    const results: Record<string, VariantResult> = {};
    for (const v of VARIANTS) {
      results[v.name] = await runDriver<VariantResult>(resolve(import.meta.dirname, '../workload/burst-variant.ts'), {
        ...v,
        burstPosts: BURST_POSTS,
        probeAuthors: PROBE_AUTHORS,
        mixRate: MIX_RATE,
      } satisfies VariantPlan);
    }
    return figuresOf(results.off!, results.cold!, results.warm!);
  },
};

const ratio = (a: number, b: number) => round(a / Math.max(b, 1), 2);

function figuresOf(off: VariantResult, cold: VariantResult, warm: VariantResult): Figure[] {
  const probe = (r: VariantResult) => stats(r.burst.probeMs);
  const burstNote = (r: VariantResult) =>
    `${r.name}: probes p50 ${probe(r).p50} ms, p99 ${probe(r).p99} ms of ${r.burst.probeMs.length}${r.burst.probesLost ? ` (${r.burst.probesLost} never arrived)` : ''}; drained in ${round(r.burst.drainSeconds, 1)} s (posted in ${round(r.burst.postedSeconds, 1)} s)`;
  const figures: Figure[] = [];
  for (const r of [cold, warm]) {
    figures.push(
      fig(
        `${r.name}: probes posted during a burst of ${r.burst.posts} posts (${r.burst.fanoutJobs} fan-out jobs, ${r.burst.copies} copies): 201 → in every follower's feed, p99 of ${r.burst.probeMs.length}`,
        probe(r).p99,
        'ms',
        {
          ...atMost(probe(r).p99, 5000),
          met: r.burst.probesLost === 0 && probe(r).p99 <= 5000,
          note: `${burstNote(r)}; beside ${burstNote(off)}; the floor: posts arrived at ${round(r.burst.posts / r.burst.postedSeconds, 1)}/s and drained at ${round(r.burst.posts / r.burst.drainSeconds, 1)}/s, so at most ${round((100 * r.burst.postedSeconds) / r.burst.drainSeconds, 0)} % of the posts made meanwhile (probes among them) can be served fresh; probe authors with ${Math.min(...r.burst.probeFollowers)}–${Math.max(...r.burst.probeFollowers)} followers`,
        },
      ),
    );
    const drain = stats(r.burst.drainProbeMs);
    figures.push(
      fig(
        `${r.name}: probes posted while the burst's backlog drained, once the outbox had queued it (${Math.min(...r.burst.drainProbeDepths)}–${Math.max(...r.burst.drainProbeDepths)} fan-out jobs queued as each was posted): 201 → in every follower's feed, p99 of ${r.burst.drainProbeMs.length}`,
        drain.p99,
        'ms',
        {
          ...atMost(drain.p99, 5000),
          met: r.burst.drainProbesLost === 0 && drain.p99 <= 5000,
          note: `p50 ${drain.p50} ms, max ${drain.max} ms; the outbox queued the burst's last job ${round(r.burst.outboxLagSeconds, 1)} s after its last post was answered (a post made meanwhile waits in the feed table's stream behind the burst)${r.burst.drainProbesLost ? `, ${r.burst.drainProbesLost} never arrived` : ''}; beside off: p50 ${stats(off.burst.drainProbeMs).p50} ms, p99 ${stats(off.burst.drainProbeMs).p99} ms`,
        },
      ),
    );
    figures.push(
      fig(`${r.name}: the burst drained (first post → every copy), ÷ off's`, ratio(r.burst.drainSeconds, off.burst.drainSeconds), '×', {
        ...atMost(ratio(r.burst.drainSeconds, off.burst.drainSeconds), 1.1),
        note: `${round(r.burst.drainSeconds, 1)} s against ${round(off.burst.drainSeconds, 1)} s`,
      }),
    );
  }
  const wrong = [off, cold, warm].reduce((n, r) => n + r.burst.wrongFeeds, 0);
  figures.push(
    fig(
      'exactly once: home feeds holding a burst post twice, missing one, or one they are not owed (whole feeds checked)',
      wrong,
      `of ${[off, cold, warm].reduce((n, r) => n + r.burst.checkedFeeds, 0)}`,
      { target: '0', met: wrong === 0 },
    ),
  );
  const mixNote = (r: VariantResult) =>
    `${r.name}: reads p50 ${r.mix.readP50} / p99 ${r.mix.readP99} ms, freshness p50 ${r.mix.freshnessP50} / p99 ${r.mix.freshnessP99} ms (${r.mix.probes} probes, ${r.mix.probeErrors} never arrived), ${r.mix.failed} of ${r.mix.total} failed, the driver sent p99 ${r.mix.sendLagP99} ms late`;
  for (const r of [cold, warm]) {
    const worst = Math.max(ratio(r.mix.readP50, off.mix.readP50), ratio(r.mix.readP99, off.mix.readP99), ratio(r.mix.freshnessP99, off.mix.freshnessP99));
    figures.push(
      fig(`mix (60/30/10 at ${MIX_RATE}/s) from ${r.name} ÷ off: the worst of read p50, read p99 and freshness p99`, worst, '×', {
        ...atMost(worst, 1.2),
        note: `${mixNote(r)}; ${mixNote(off)}`,
      }),
    );
    figures.push(
      fig(`mix (60/30/10 at ${MIX_RATE}/s) from ${r.name}: failed requests`, r.mix.failed, `of ${r.mix.total}`, { target: '0', met: r.mix.failed === 0 }),
    );
  }
  for (const r of [off, cold, warm]) {
    const bound = Math.max(5000, 2 * r.mix.readP99);
    figures.push(
      fig(`${r.name}: freshness p99 during the mix (201 → in every follower's feed), against 5 s or 2× the mix's own read p99`, r.mix.freshnessP99, 'ms', {
        ...atMost(r.mix.freshnessP99, bound),
        met: r.mix.probeErrors === 0 && r.mix.freshnessP99 <= bound,
      }),
    );
  }
  return figures;
}
