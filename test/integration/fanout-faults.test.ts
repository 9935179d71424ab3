/**
 * Fan-out under injected faults, each ending with exactly one copy per follower. This file runs
 * its OWN in-memory local stack with the pollers in this process: the handlers load here, so
 * faults injected into their SDK clients (middleware on `functions/platform/clients.ts`) hit the real
 * pipeline — stream → outbox → SQS → worker — and recovery goes through real redelivery.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ReceiveMessageCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mustPost } from '../support/api.js';
import { seedFollowers } from '../support/graph-seed.js';
import { uid } from '../support/ids.js';
import { allDelivered, own, sqs, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

type Fault = 'crash' | 'unprocessed' | 'throttle' | undefined;
/** Decides per feed-table BatchWriteItem call (n counts every such call). */
let batchWriteFault: ((n: number) => Fault) | undefined;
let batchWriteCalls = 0;
let batchWriteItems = 0;
/** Decides per SendMessageBatch call carrying a first-page fanout job (the outbox's sends). */
let outboxSendFault: ((n: number) => 'before' | 'after' | undefined) | undefined;
let outboxSends = 0;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1 });
  const handlerClients = await import('../../functions/platform/clients.js');
  installFaults(handlerClients.dynamo, handlerClients.sqs, stack.tableNames.feed);
}, 120_000);

afterAll(stopOwnStack);

function installFaults(dynamo: DynamoDBClient, handlerSqs: SQSClient, feedTable: string) {
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { RequestItems?: Record<string, unknown[]> };
      const requests = input.RequestItems?.[feedTable];
      if (!context.commandName?.startsWith('BatchWrite') || !requests) return next(args);
      batchWriteCalls += 1;
      const fault = batchWriteFault?.(batchWriteCalls);
      if (fault === 'crash') throw Object.assign(new Error('injected crash mid fan-out'), { name: 'InjectedCrash' });
      if (fault === 'throttle') {
        throw Object.assign(new Error('injected throttling'), { name: 'ProvisionedThroughputExceededException' });
      }
      if (fault === 'unprocessed' && requests.length > 1) {
        const half = Math.ceil(requests.length / 2);
        const result = await next({ ...args, input: { ...input, RequestItems: { [feedTable]: requests.slice(0, half) } } });
        batchWriteItems += half;
        (result.output as { UnprocessedItems?: unknown }).UnprocessedItems = { [feedTable]: requests.slice(half) };
        return result;
      }
      const result = await next(args);
      batchWriteItems += requests.length;
      return result;
    },
    { step: 'initialize', name: 'injectFeedWriteFaults' },
  );
  handlerSqs.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Entries?: { MessageBody?: string }[] };
      const outbox =
        context.commandName === 'SendMessageBatchCommand' &&
        (input.Entries ?? []).some((e) => /"kind":"fanout"/.test(e.MessageBody ?? '') && !/"cursor"/.test(e.MessageBody ?? ''));
      if (!outbox || !outboxSendFault) return next(args);
      outboxSends += 1;
      const fault = outboxSendFault(outboxSends);
      if (fault === 'before') throw new Error('injected crash before the enqueue');
      const result = await next(args);
      if (fault === 'after') throw new Error('injected crash after the enqueue, before the ack');
      return result;
    },
    { step: 'initialize', name: 'injectOutboxFaults' },
  );
}

describe('fan-out under faults (own stack)', () => {
  it('recovers when the worker dies part-way through its writes', async () => {
    const author = uid('half');
    const { FIRST_FANOUT_PAGE } = await import('../../functions/services/follower-pages.js'); // after the stack set the env
    // The first page (FIRST_FANOUT_PAGE, 100: 4 BatchWriteItem calls), then a further page of 250:
    // 10 calls, more than the 8 a page keeps in flight, so the call that dies starts only after
    // earlier writes have finished.
    const followers = await seedFollowers(author, FIRST_FANOUT_PAGE + 250, { on: own });
    let crashes = 0;
    batchWriteCalls = 0;
    batchWriteItems = 0;
    // Call 1 is the POST's own copy, 2–5 the first page; the further page's 9th call dies, after 8 × 25 = 200 of its writes.
    batchWriteFault = (n) => (n === 14 && crashes++ === 0 ? 'crash' : undefined);
    try {
      const p = await mustPost(author, { verb: 'post' }, own);
      await allDelivered(followers, p.rangeKey, 120_000);
      expect(crashes).toBe(1);
      // The POST's own copy, the first page, 200 written before the crash, then all 250 rewritten by the redelivered message.
      expect(batchWriteItems).toBeGreaterThanOrEqual(1 + FIRST_FANOUT_PAGE + 200 + 250);
    } finally {
      batchWriteFault = undefined;
    }
  }, 150_000);

  it('retries UnprocessedItems and throttling with backoff, bounded, and still writes each copy once', async () => {
    const author = uid('throttled');
    // 6 calls of 25, all in flight at once: of the 12 faulted calls (call 1 is the POST's own copy)
    // one call gets at most 1 + 5, under the 8 attempts a call has — the job's own retries absorb them.
    const followers = await seedFollowers(author, 150, { on: own });
    const seen: Fault[] = [];
    batchWriteCalls = 0;
    batchWriteFault = (n) => {
      const f: Fault = n <= 12 ? (n % 2 ? 'unprocessed' : 'throttle') : undefined;
      seen.push(f);
      return f;
    };
    try {
      const p = await mustPost(author, { verb: 'post' }, own);
      await allDelivered(followers, p.rangeKey, 120_000);
      expect(seen.filter((f) => f === 'unprocessed')).toHaveLength(6);
      expect(seen.filter((f) => f === 'throttle')).toHaveLength(6);
    } finally {
      batchWriteFault = undefined;
    }
  }, 150_000);

  it('loses nothing when the outbox crashes before, and after, enqueueing (author write already done)', async () => {
    const author = uid('outbox');
    const followers = await seedFollowers(author, 100, { on: own }); // what fails is the enqueue, not the page
    outboxSends = 0;
    // 1st and 2nd attempt die before the send; the 3rd sends and dies before acknowledging, so the
    // stream redelivers and the 4th sends the job again: two identical jobs, one copy each.
    outboxSendFault = (n) => (n <= 2 ? 'before' : n === 3 ? 'after' : undefined);
    try {
      const p = await mustPost(author, { verb: 'post' }, own); // 201: the original is written, nothing enqueued yet
      await allDelivered(followers, p.rangeKey, 120_000);
      expect(outboxSends).toBeGreaterThanOrEqual(4);
    } finally {
      outboxSendFault = undefined;
    }
  }, 150_000);

  it('sends a poison message to the DLQ after maxReceiveCount while the other jobs are delivered', async () => {
    const author = uid('poison');
    const followers = await seedFollowers(author, 50, { on: own });
    const marker = uid('poison-marker');
    await sqs.send(new SendMessageCommand({ QueueUrl: stack.queueUrls.fanout, MessageBody: JSON.stringify({ kind: 'fanout', marker }) }));
    const p = await mustPost(author, { verb: 'post' }, own);
    await allDelivered(followers, p.rangeKey, 120_000);
    const found = await eventually(
      async () => {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: stack.queueUrls.fanoutDlq, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
        );
        return Messages.find((m) => m.Body?.includes(marker))?.Body;
      },
      { what: 'the poison message in the fan-out DLQ', timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(found).toContain(marker);
  }, 150_000);
});
