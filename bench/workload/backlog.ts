/**
 * Backed-up lanes for the probes: each lane's poller held still (stack.pauseSource), its queue
 * filled with valid jobs of its own kinds that would change nothing if they ran (a backfill
 * between users who do not exist, a notification older than the notification window, a pull of a
 * user without followers), and afterwards the queue purged and the poller released. Held, the
 * backlog cannot drain while the probes run, so "queued" is a fact, not a race: the depth is
 * checked before and after.
 */
import { GetQueueAttributesCommand, PurgeQueueCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { type LaneId, laneSource } from '../../lib/defs/lanes.js';
import type { BenchContext } from '../context.js';
import { pool } from '../stats.js';

/** A job of `lane` that finds nothing to do (the ids name no real user). */
export function noOpJob(lane: Exclude<LaneId, 'fanout'>, ghost: string, i: number): unknown {
  switch (lane) {
    case 'followup':
      return { kind: 'backfill', follower: `${ghost}-f${i}`, followee: `${ghost}-e${i}` };
    case 'notify':
      // ticks 1 = 1970: outside the notification window, so the job drops the event unread.
      return { kind: 'notify', recipient: `${ghost}-r${i % 100}`, events: [{ verb: 'like', object: `o${i}`, actor: `${ghost}-a${i}`, id: `e${i}`, ticks: '1' }] };
    case 'maintenance':
      return { kind: 'pull', author: `${ghost}-p${i}` };
  }
}

/** Sends `count` no-op jobs to `lane`'s queue (SendMessageBatch, 10 a call, 8 calls in flight). */
export async function fillLane(ctx: BenchContext, lane: Exclude<LaneId, 'fanout'>, count: number, ghost: string): Promise<void> {
  const calls = Math.ceil(count / 10);
  await pool(calls, 8, async (c) => {
    const Entries = Array.from({ length: Math.min(10, count - c * 10) }, (_, j) => ({ Id: String(j), MessageBody: JSON.stringify(noOpJob(lane, ghost, c * 10 + j)) }));
    const out = await ctx.sqs.send(new SendMessageBatchCommand({ QueueUrl: ctx.stack.queueUrls[lane], Entries }));
    if (out.Failed?.length) throw new Error(`backlog for ${lane}: ${out.Failed.length} messages refused (${out.Failed[0]!.Message})`);
  });
}

/** Messages waiting or in flight on one lane's queue. */
export async function laneDepth(ctx: BenchContext, lane: LaneId): Promise<number> {
  const { Attributes = {} } = await ctx.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: ctx.stack.queueUrls[lane], AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
  );
  return Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0);
}

/** Holds the lanes' pollers still (once no batch they started is under way); returns the release. */
export async function holdLanes(ctx: BenchContext, lanes: readonly LaneId[]): Promise<() => void> {
  const resumes = await Promise.all(lanes.map((lane) => ctx.stack.pauseSource(laneSource(lane))));
  return () => resumes.forEach((resume) => resume());
}

/** Drops everything queued on the lanes (only the no-op backlog is there while they are held). */
export async function purgeLanes(ctx: BenchContext, lanes: readonly LaneId[]): Promise<void> {
  for (const lane of lanes) await ctx.sqs.send(new PurgeQueueCommand({ QueueUrl: ctx.stack.queueUrls[lane] }));
}
