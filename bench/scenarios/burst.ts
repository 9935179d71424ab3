/**
 * Readers first under a peer's workload (docs/lanes.md): three settings, each on a fresh stack in
 * a process of its own (workload/burst-variant.ts) with the same graph and posts — `off` (every
 * follower copied, queue order), `cold` (the defaults, nobody stamped) and `warm` (everyone
 * stamped). All three stacks stay up, but only one runs at a time (the others stopped: DriverSession);
 * each in turn takes a many-authors burst with probes, then they take turns at the workload's mix,
 * MIX_ROUNDS rounds (turnOrder), pooled: one
 * mix per setting run one after the other moved by more than the ratio it is judged on (the same
 * build's mix from warm read 0.5× `off`'s in one run and 3.8× in the next), so the machine's drift
 * must fall on every setting alike.
 */
import { resolve } from 'node:path';
import { type DriverSession, startSession } from '../driver.js';
import { atMost, type Figure, figureOf } from '../report.js';
import { round, stats } from '../stats.js';
import type { BurstResult } from '../workload/burst.js';
import type { VariantPlan, VariantRequest } from '../workload/burst-variant.js';
import type { MixSummary } from '../workload/mix.js';
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
const MIX_ROUNDS = env('BENCH_BURST_MIX_ROUNDS', 4);
const MIX_SECONDS = env('BENCH_BURST_MIX_SECONDS', 30);
/** A probe a second: the freshness p99 of a setting's ~120 probes is not just its slowest. */
const MIX_PROBE_EVERY_MS = env('BENCH_BURST_MIX_PROBE_EVERY_MS', 1000);
const DEFAULTS = { FANOUT_ACTIVE_WINDOW: '30d', FANOUT_BACKLOG_AFTER: '1s', STAMP_SPREAD: '15m' };
const VARIANTS: Pick<VariantPlan, 'name' | 'env' | 'warm'>[] = [
  { name: 'off', env: { ...DEFAULTS, FANOUT_ACTIVE_WINDOW: 'off', FANOUT_BACKLOG_AFTER: 'off' }, warm: false },
  { name: 'cold', env: DEFAULTS, warm: false },
  { name: 'warm', env: DEFAULTS, warm: true },
];

export const burst: Scenario = {
  id: 'burst',
  title: 'readers first: a many-authors burst with probes, and the mix from cold and warm beside `off`',
  ownStacks: true,
  async run() {
    const script = resolve(import.meta.dirname, '../workload/burst-variant.ts');
    const sessions = VARIANTS.map(() => startSession(script));
    try {
      // One setting at a time on the machine: the others' stacks stopped meanwhile (DriverSession).
      const turn = async <T>(v: number, request: VariantRequest) => {
        sessions[v]!.resume();
        try {
          return await sessions[v]!.ask<T>(request);
        } finally {
          sessions[v]!.pause();
        }
      };
      const plan = {
        burstPosts: BURST_POSTS,
        probeAuthors: PROBE_AUTHORS,
        mixRate: MIX_RATE,
        mixSeconds: MIX_SECONDS,
        mixRounds: MIX_ROUNDS,
        mixProbeEveryMs: MIX_PROBE_EVERY_MS,
      };
      // Seeding is not measured: all three at once.
      await Promise.all(VARIANTS.map((v, i) => sessions[i]!.ask({ ...v, ...plan } satisfies VariantPlan)));
      sessions.forEach((s) => s.pause());
      const bursts: BurstResult[] = [];
      for (let i = 0; i < VARIANTS.length; i++) bursts.push(await turn<BurstResult>(i, { run: 'burst' }));
      const mixes: MixSummary[][] = VARIANTS.map(() => []);
      for (let round = 0; round < MIX_ROUNDS; round++) for (const i of turnOrder(round)) mixes[i]!.push(await turn<MixSummary>(i, { run: 'mix', round }));
      const results = VARIANTS.map((v, i): VariantResult => ({ name: v.name, burst: bursts[i]!, mix: mixes[i]! }));
      return figuresOf(results[0]!, results[1]!, results[2]!);
    } finally {
      await Promise.all(sessions.map((s: DriverSession) => s.end()));
    }
  },
};

/**
 * The settings' order in a round of the mix: forward, then backward, so each setting follows every
 * other equally often. (A setting's jobs that come due while it is stopped — `cold`'s restamps, sent
 * with a delay spread over STAMP_SPREAD — run in its own next turn, on its background lane.)
 */
const turnOrder = (round: number) => (round % 2 === 0 ? VARIANTS.map((_, i) => i) : VARIANTS.map((_, i) => VARIANTS.length - 1 - i));

interface VariantResult {
  readonly name: string;
  readonly burst: BurstResult;
  /** One summary per round of the mix. */
  readonly mix: MixSummary[];
}

const ratio = (a: number, b: number) => round(a / Math.max(b, 1), 2);

type MixFigures = Omit<MixSummary, 'reads' | 'freshness'>;

/** A setting's rounds of the mix as one: percentiles over every read and every probe of every round. */
function pooled(r: VariantResult): MixFigures {
  const reads = stats(r.mix.flatMap((m) => m.reads));
  const fresh = stats(r.mix.flatMap((m) => m.freshness));
  const total = (f: (m: MixSummary) => number) => r.mix.reduce((n, m) => n + f(m), 0);
  const most = (f: (m: MixSummary) => number) => Math.max(...r.mix.map(f));
  return {
    readP50: reads.p50,
    readP99: reads.p99,
    freshnessP50: fresh.p50,
    freshnessP99: fresh.p99,
    probes: total((m) => m.probes),
    probeErrors: total((m) => m.probeErrors),
    failed: total((m) => m.failed),
    total: total((m) => m.total),
    sendLagP99: most((m) => m.sendLagP99),
    backlogDepth: most((m) => m.backlogDepth),
    backgroundDepth: most((m) => m.backgroundDepth),
  };
}

/** The mix's judged figure: the worst of read p50, read p99 and freshness p99, ÷ the same of `off`. */
const worstRatio = (m: MixFigures, off: MixFigures) =>
  Math.max(ratio(m.readP50, off.readP50), ratio(m.readP99, off.readP99), ratio(m.freshnessP99, off.freshnessP99));

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
  const mixNote = (r: VariantResult) => {
    const m = pooled(r);
    return `${r.name}: reads p50 ${m.readP50} / p99 ${m.readP99} ms, freshness p50 ${m.freshnessP50} / p99 ${m.freshnessP99} ms (${m.probes} probes, ${m.probeErrors} never arrived), ${m.failed} of ${m.total} failed, the driver sent p99 ${m.sendLagP99} ms late at worst, fanoutBacklog held at most ${m.backlogDepth} jobs; by round, freshness p99 ${r.mix.map((k) => k.freshnessP99).join(', ')} ms and the background lane's deepest queue (restamps come due there) ${r.mix.map((k) => k.backgroundDepth).join(', ')}`;
  };
  const rounds = `${MIX_ROUNDS} rounds of ${MIX_SECONDS} s, the settings taking turns`;
  for (const r of [cold, warm]) {
    const worst = worstRatio(pooled(r), pooled(off));
    const byRound = r.mix.map((m, k) => `${worstRatio(m, off.mix[k]!)}×`).join(', ');
    figures.push(
      fig(`mix (60/30/10 at ${MIX_RATE}/s, ${rounds}) from ${r.name} ÷ off, pooled: the worst of read p50, read p99 and freshness p99`, worst, '×', {
        ...atMost(worst, 1.2),
        note: `${mixNote(r)}; ${mixNote(off)}; round by round ${byRound}`,
      }),
    );
    const m = pooled(r);
    figures.push(
      fig(`mix (60/30/10 at ${MIX_RATE}/s, ${rounds}) from ${r.name}: failed requests`, m.failed, `of ${m.total}`, { target: '0', met: m.failed === 0 }),
    );
  }
  for (const r of [off, cold, warm]) {
    const m = pooled(r);
    const bound = Math.max(5000, 2 * m.readP99);
    figures.push(
      fig(`${r.name}: freshness p99 during the mix (201 → in every follower's feed), against 5 s or 2× the mix's own read p99`, m.freshnessP99, 'ms', {
        ...atMost(m.freshnessP99, bound),
        met: m.probeErrors === 0 && m.freshnessP99 <= bound,
      }),
    );
  }
  return figures;
}
