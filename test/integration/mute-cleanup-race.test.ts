/**
 * A mute's cleanup that read "muted" before an unmute must not keep the unmuted feed short (issue
 * 39 item 3). On a stack of this file's own without pollers, the test runs each job itself, in the
 * order that lost copies: the cleanup reads the edge (muted) and is held before it reads the
 * followee's posts; meanwhile the mute is lifted, the jobs the unmute queued run (its backfill) and
 * a new post is fanned out to the reader; then the cleanup goes on, finds the new post among the
 * followee's and deletes the reader's copy. The follow wants posts again and nothing else will
 * write them back: the cleanup has to see that and queue the backfill the unmute promised.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { timelinePartition } from '../../functions/model/timeline-item.js';
import type { Job } from '../../functions/services/jobs/jobs.js';
import { api, mustPost } from '../support/api.js';
import { fanoutRecord } from '../support/fanout-record.js';
import { uid } from '../support/ids.js';
import { own, sqs, stack, startOwnStack, stopOwnStack, storedCopies } from '../support/own-stack.js';

let raw: DynamoDBClient;
let fanoutWorker: (event: SQSEvent) => Promise<unknown>;
let runJob: (job: Job) => Promise<void>;
let muteCleanup: (follower: string, followee: string) => Promise<void>;

/** The first Query of `author`'s timeline on the handlers' client waits at a gate (once). */
let hold: { author: string; reached: () => void; gate: Promise<void> } | undefined;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, pollers: false });
  raw = new DynamoDBClient({ endpoint: stack.dynamoEndpoint, region: localRegion, credentials: localCredentials });
  const { dynamo } = await import('../../functions/platform/clients.js');
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const h = hold;
      const pk = (args.input as { ExpressionAttributeValues?: Record<string, string | { S?: string }> }).ExpressionAttributeValues?.[':pk'];
      const text = typeof pk === 'string' ? pk : pk?.S; // plain or marshalled, depending on the step
      if (h && context.commandName === 'QueryCommand' && text === timelinePartition(h.author)) {
        hold = undefined;
        h.reached();
        await h.gate;
      }
      return next(args);
    },
    { step: 'initialize', name: 'holdTimelineQuery' },
  );
  fanoutWorker = (await import('../../functions/handlers/fanout-worker.js')).handler;
  runJob = (await import('../../functions/services/jobs/run.js')).runJob;
  muteCleanup = (await import('../../functions/services/follow-copies/unfollow-cleanup.js')).muteCleanup;
}, 120_000);

afterAll(async () => {
  raw?.destroy();
  await stopOwnStack();
});

/** Runs the followup lane's queued jobs by hand (the backfills, the cleanups), until it is empty; the kinds run. */
async function runFollowups(): Promise<string[]> {
  const ran: string[] = [];
  for (let round = 0; round < 20; round++) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: stack.queueUrls.followup, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!out.Messages?.length) return ran;
    for (const m of out.Messages) {
      const job = JSON.parse(m.Body!) as Job;
      await runJob(job);
      ran.push(job.kind);
      await sqs.send(new DeleteMessageCommand({ QueueUrl: stack.queueUrls.followup, ReceiptHandle: m.ReceiptHandle! }));
    }
  }
  throw new Error('the followup lane did not empty in 20 rounds');
}

describe("a mute's cleanup overtaken by an unmute", () => {
  it("leaves the unmuted reader's feed whole: the post made after the unmute stays (or comes back)", async () => {
    const reader = uid('reader');
    const author = uid('author');
    expect((await api('PUT', `/following/${author}`, { on: own, as: reader })).status).toBeLessThan(300);
    const before = await mustPost(author, { verb: 'post', content: 'before the mute' }, own);
    expect(await fanoutWorker({ Records: [await fanoutRecord(raw, stack.tableNames.feed, author)] })).toEqual({ batchItemFailures: [] });
    expect((await api('PUT', `/mutes/${author}`, { on: own, as: reader })).status).toBe(204);
    await runFollowups(); // the follow's backfill, the mute's first cleanup: the reader's copy goes
    expect(await storedCopies(reader)).toEqual([]);

    // The mute's settle cleanup (CONTROL_SETTLE later) reads the edge — muted — and stops before it reads the author's posts.
    let reached!: () => void;
    let open!: () => void;
    const atGate = new Promise<void>((r) => (reached = r));
    hold = { author, reached, gate: new Promise<void>((r) => (open = r)) };
    const cleanup = muteCleanup(reader, author);
    await atGate;

    // Meanwhile: the unmute, its backfill, and a new post fanned out to the reader again.
    expect((await api('DELETE', `/mutes/${author}`, { on: own, as: reader })).status).toBe(204);
    expect(await runFollowups()).toContain('backfill');
    const after = await mustPost(author, { verb: 'post', content: 'after the unmute' }, own);
    expect(await fanoutWorker({ Records: [await fanoutRecord(raw, stack.tableNames.feed, author)] })).toEqual({ batchItemFailures: [] });
    const wanted = [after.rangeKey, before.rangeKey]; // newest first
    expect(await storedCopies(reader)).toEqual(wanted);

    // The cleanup goes on from its stale read; then whatever it left queued runs.
    open();
    await cleanup;
    await runFollowups();
    expect(await storedCopies(reader)).toEqual(wanted);
  });
});
