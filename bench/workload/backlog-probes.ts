/**
 * Phase 3 of the workload: probes while the other lanes are backed up. The followup, notify and
 * maintenance lanes' pollers are held still (stack.pauseSource) and their queues filled with 60,000
 * valid jobs that change nothing (a backfill between users who do not exist, a notification older
 * than its window, a pull of a user without followers); each probe (probes.ts) is a post by a user
 * from the top of the follower counts down the tail, timed from its 201 until every follower has
 * its copy. The depths are checked unchanged after the probes (nothing drained: the backlog really
 * was there); then the backlog is received and deleted here before the pollers are released (not
 * PurgeQueue: the local server, like SQS, empties a purged queue 60 s later and would drop the next
 * phase's jobs).
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { laneSource } from '../../lib/defs/lanes.js';
import { queueDepth } from '../../local/queue-depth.js';
import type { BenchContext } from '../context.js';
import { atMost, type Figure, figureOf } from '../report.js';
import { probe, type ProbeResult } from './probes.js';
import { S, type WorkloadRun } from './run.js';
import { pool, stats } from '../stats.js';

const fig = figureOf(S);

type BacklogLane = 'followup' | 'notify' | 'maintenance';
const BACKLOG_LANES: BacklogLane[] = ['followup', 'notify', 'maintenance'];
const BACKLOG_PER_LANE = 20_000;

export async function backlogProbes(run: WorkloadRun, authors: readonly number[]): Promise<Figure[]> {
  const { ctx, idOf, followerIds, say } = run;
  const ghost = `${idOf(0)}-backlog`;
  // Held once no batch their pollers started is under way.
  const resumes = await Promise.all(BACKLOG_LANES.map((lane) => ctx.stack.pauseSource(laneSource(lane))));
  const results: ProbeResult[] = [];
  let before: number[] = [];
  let after: number[] = [];
  let queued = 0;
  try {
    for (const lane of BACKLOG_LANES) {
      say(`queueing ${BACKLOG_PER_LANE} no-op jobs on the held ${lane} lane…`);
      await fillLane(ctx, lane, BACKLOG_PER_LANE, ghost);
    }
    before = await Promise.all(BACKLOG_LANES.map((l) => queueDepth(ctx, l)));
    queued = before.reduce((a, b) => a + b, 0);
    for (let i = 0; i < authors.length; i++) {
      say(`probe ${i + 1}/${authors.length} behind ${queued} queued jobs`);
      results.push(await probe(ctx, idOf(authors[i]!), followerIds(authors[i]!), `backlog-${i}`));
    }
    after = await Promise.all(BACKLOG_LANES.map((l) => queueDepth(ctx, l)));
  } finally {
    say('removing the backlog from the held lanes…');
    for (const lane of BACKLOG_LANES) await emptyHeldLane(ctx, lane);
    for (const resume of resumes) resume();
  }
  const left = await Promise.all(BACKLOG_LANES.map((l) => queueDepth(ctx, l)));
  if (left.some((d) => d > 0)) throw new Error(`the backlog was not removed: ${left.join('/')} left`);
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

/** A job of `lane` that finds nothing to do (the ids name no real user). */
function noOpJob(lane: BacklogLane, ghost: string, i: number): unknown {
  switch (lane) {
    case 'followup':
      return { kind: 'backfill', follower: `${ghost}-f${i}`, followee: `${ghost}-e${i}` };
    case 'notify':
      // ticks 1 = 1970: outside the notification window, so the job drops the event unread.
      return {
        kind: 'notify',
        recipient: `${ghost}-r${i % 100}`,
        events: [{ verb: 'like', object: `o${i}`, actor: `${ghost}-a${i}`, id: `e${i}`, ticks: '1' }],
      };
    case 'maintenance':
      return { kind: 'pull', author: `${ghost}-p${i}` };
  }
}

/** Sends `count` no-op jobs to `lane`'s queue (SendMessageBatch, 10 a call, 8 calls in flight). */
async function fillLane(ctx: BenchContext, lane: BacklogLane, count: number, ghost: string): Promise<void> {
  const calls = Math.ceil(count / 10);
  await pool(calls, 8, async (c) => {
    const Entries = Array.from({ length: Math.min(10, count - c * 10) }, (_, j) => ({
      Id: String(j),
      MessageBody: JSON.stringify(noOpJob(lane, ghost, c * 10 + j)),
    }));
    const out = await ctx.sqs.send(new SendMessageBatchCommand({ QueueUrl: ctx.stack.queueUrls[lane], Entries }));
    if (out.Failed?.length) throw new Error(`backlog for ${lane}: ${out.Failed.length} messages refused (${out.Failed[0]!.Message})`);
  });
}

/** Receives and deletes everything queued on a held lane (only the no-op backlog is there), 16 receivers at once. */
async function emptyHeldLane(ctx: BenchContext, lane: BacklogLane): Promise<void> {
  const QueueUrl = ctx.stack.queueUrls[lane];
  await pool(16, 16, async () => {
    for (;;) {
      const { Messages = [] } = await ctx.sqs.send(
        new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 120 }),
      );
      if (Messages.length === 0) return;
      await ctx.sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
    }
  });
}
