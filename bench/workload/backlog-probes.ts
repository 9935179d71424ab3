/**
 * Phase 3 of the workload: probes while the other lanes are backed up. The followup, notify and
 * maintenance lanes' pollers are held and their queues filled with 60,000 no-op jobs in total
 * (backlog.ts); each probe (probes.ts) is a post by a user from the top of the follower counts down
 * the tail, timed from its 201 until every follower has its copy. The depths are checked unchanged
 * after the probes (nothing drained: the backlog really was there), then the backlog is removed.
 */
import type { LaneId } from '../../lib/defs/lanes.js';
import { queueDepth } from '../../local/queue-depth.js';
import { atMost, type Figure, figureOf } from '../report.js';
import { emptyHeldLane, fillLane, holdLanes } from './backlog.js';
import { probe, type ProbeResult } from './probes.js';
import { S, type WorkloadRun } from './run.js';
import { stats } from '../stats.js';

const fig = figureOf(S);

const BACKLOG_LANES: Exclude<LaneId, 'fanout'>[] = ['followup', 'notify', 'maintenance'];
const BACKLOG_PER_LANE = 20_000;

export async function backlogProbes(run: WorkloadRun, authors: readonly number[]): Promise<Figure[]> {
  const { ctx, idOf, followerIds, say } = run;
  const ghost = `${idOf(0)}-backlog`;
  const release = await holdLanes(ctx, BACKLOG_LANES);
  const results: ProbeResult[] = [];
  let before: number[] = [];
  let after: number[] = [];
  try {
    for (const lane of BACKLOG_LANES) {
      say(`queueing ${BACKLOG_PER_LANE} no-op jobs on the held ${lane} lane…`);
      await fillLane(ctx, lane, BACKLOG_PER_LANE, ghost);
    }
    before = await Promise.all(BACKLOG_LANES.map((l) => queueDepth(ctx, l)));
    for (let i = 0; i < authors.length; i++) {
      say(`probe ${i + 1}/${authors.length} behind ${before.reduce((a, b) => a + b, 0)} queued jobs`);
      results.push(await probe(ctx, idOf(authors[i]!), followerIds(authors[i]!), `backlog-${i}`));
    }
    after = await Promise.all(BACKLOG_LANES.map((l) => queueDepth(ctx, l)));
  } finally {
    say('removing the backlog from the held lanes…');
    for (const lane of BACKLOG_LANES) await emptyHeldLane(ctx, lane);
    release();
  }
  const left = await Promise.all(BACKLOG_LANES.map((l) => queueDepth(ctx, l)));
  if (left.some((d) => d > 0)) throw new Error(`the backlog was not removed: ${left.join('/')} left`);
  const queued = before.reduce((a, b) => a + b, 0);
  if (after.some((d, i) => d !== before[i])) throw new Error(`the held lanes changed during the probes: ${before.join('/')} → ${after.join('/')}`);
  const s = stats(results.map((r) => r.ms));
  const firsts = stats(results.map((r) => r.firstMs));
  return [
    fig(
      `probes while ${queued} jobs of other kinds are queued (${BACKLOG_LANES.map((l, i) => `${l} ${before[i]}`).join(', ')}): 201 → in every follower's feed, p99 of ${results.length}`,
      s.p99,
      'ms',
      {
        ...atMost(s.p99, 2000),
        note: `p50 ${s.p50} ms, max ${s.max} ms; 201 → first copy seen p50 ${firsts.p50} ms; authors with ${results.map((r) => r.followers).join(', ')} followers; the lanes' pollers held, depths unchanged after the probes, then the backlog removed`,
      },
    ),
  ];
}
