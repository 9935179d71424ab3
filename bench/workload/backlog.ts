/**
 * Backed-up lanes for the probes: each lane's poller held still (stack.pauseSource), its queue
 * filled with valid jobs that change nothing (a backfill between users who do not exist, a
 * notification older than its window, a pull of a user without followers), and afterwards the
 * backlog received and deleted here before the poller is released (not PurgeQueue: the local
 * server, like SQS, empties a purged queue 60 s later and would drop the next phase's jobs).
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { type LaneId, laneSource } from '../../lib/defs/lanes.js';
import type { BenchContext } from '../context.js';
import { pool } from '../stats.js';

/** A job of `lane` that finds nothing to do (the ids name no real user). */
function noOpJob(lane: Exclude<LaneId, 'fanout'>, ghost: string, i: number): unknown {
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
export async function fillLane(ctx: BenchContext, lane: Exclude<LaneId, 'fanout'>, count: number, ghost: string): Promise<void> {
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

/** Holds the lanes' pollers still (once no batch they started is under way); returns the release. */
export async function holdLanes(ctx: BenchContext, lanes: readonly LaneId[]): Promise<() => void> {
  const resumes = await Promise.all(lanes.map((lane) => ctx.stack.pauseSource(laneSource(lane))));
  return () => resumes.forEach((resume) => resume());
}

/**
 * Receives and deletes everything queued on a held lane (only the no-op backlog is there), 16
 * receivers at once; returns how many messages it removed.
 */
export async function emptyHeldLane(ctx: BenchContext, lane: LaneId): Promise<number> {
  const QueueUrl = ctx.stack.queueUrls[lane];
  let removed = 0;
  await pool(16, 16, async () => {
    for (;;) {
      const { Messages = [] } = await ctx.sqs.send(
        new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 120 }),
      );
      if (Messages.length === 0) return;
      await ctx.sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
      removed += Messages.length;
    }
  });
  return removed;
}
