/**
 * Retries that repair, with faults injected into the handlers' own SDK clients (this file runs
 * its own stack, pollers and handlers in this process):
 *  - a mute, unmute or block whose job could not be queued after its transaction committed
 *    answers 500, and the client's retry queues the work again (the mute's cleanup, the unmute's
 *    backfill, the block's unfollow cleanups) — the repeat used to find the control in place,
 *    answer 204 and queue nothing;
 *  - contention past the retries is a 503 problem+json with Retry-After, from the one retry loop
 *    (its waits injected: no sleeping), and nothing is written.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { controlCheckKey } from '../../functions/model/user-controls.js';
import { followEdgeKey } from '../../functions/model/follow-edge.js';
import { api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, own, stack, startOwnStack, stopOwnStack, storedCopies } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

/** Decides per SendMessageBatch of the handlers: throw to refuse the whole call. */
let sendFault: ((bodies: string[]) => boolean) | undefined;
/** Decides per TransactWriteItems of the handlers: true = cancel it as a lost race. */
let transactFault: ((input: { TransactItems?: unknown[] }) => boolean) | undefined;
let transactFaults = 0;
let restoreTiming: (() => void) | undefined;
const waits: number[] = [];

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { CONTROL_SETTLE: '1s' } });
  const clients = await import('../../functions/platform/clients.js');
  installFaults(clients.dynamo, clients.sqs);
  // The one retry loop's waits: recorded, not slept (the same module the handlers run).
  const retry = await import('../../functions/platform/retry.js');
  restoreTiming = retry.setRetryTiming({ sleep: async (ms) => void waits.push(ms), random: () => 0.5 });
}, 120_000);

beforeEach(() => {
  sendFault = undefined;
  transactFault = undefined;
});

afterAll(async () => {
  restoreTiming?.();
  await stopOwnStack();
});

function installFaults(dynamo: DynamoDBClient, handlerSqs: SQSClient) {
  handlerSqs.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Entries?: { MessageBody?: string }[] };
      if (context.commandName === 'SendMessageBatchCommand' && sendFault?.((input.Entries ?? []).map((e) => e.MessageBody ?? ''))) {
        throw Object.assign(new Error('injected: the queue refused the call'), { name: 'InjectedSendFailure' });
      }
      return next(args);
    },
    { step: 'initialize', name: 'injectSendFaults' },
  );
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand' && transactFault?.(args.input as { TransactItems?: unknown[] })) {
        transactFaults += 1;
        const items = (args.input as { TransactItems?: unknown[] }).TransactItems ?? [];
        throw Object.assign(new Error('Transaction cancelled (injected)'), {
          name: 'TransactionCanceledException',
          CancellationReasons: items.map((_, i) => ({ Code: i === 0 ? 'TransactionConflict' : 'None' })),
        });
      }
      return next(args);
    },
    { step: 'initialize', name: 'injectTransactionConflicts' },
  );
}

/** Refuse the first send carrying a job of `kind`, once. */
function failFirstSendOf(kind: string): { readonly failed: () => number } {
  let failed = 0;
  sendFault = (bodies) => {
    if (failed > 0 || !bodies.some((b) => b.includes(`"kind":"${kind}"`))) return false;
    failed += 1;
    return true;
  };
  return { failed: () => failed };
}

async function followWithBackfill(follower: string, author: string): Promise<string> {
  const posted = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post' } });
  expect(posted.status).toBe(201);
  expect((await api('PUT', `/following/${author}`, { on: own, as: follower })).status).toBe(204);
  await eventually(async () => (await storedCopies(follower)).includes(posted.body.rangeKey), { what: 'the backfill copied the post', timeoutMs: 60_000 });
  return posted.body.rangeKey as string;
}

describe('a control retried after its job could not be queued repairs it', () => {
  it('mute: the retry queues the cleanup the failed request never queued', async () => {
    const [follower, author] = [uid('mute-f'), uid('mute-a')];
    const rk = await followWithBackfill(follower, author);

    const fault = failFirstSendOf('muteCleanup');
    expect((await api('PUT', `/mutes/${author}`, { on: own, as: follower })).status).toBe(500);
    expect(fault.failed()).toBe(1);
    expect((await api('GET', '/mutes', { on: own, as: follower })).body.items).toEqual([{ userId: author }]); // the mute committed
    const check = await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: controlCheckKey('mute', follower, author) }));
    expect(check.Item?.cleanupPending).toBe(true); // its cleanups are owed

    expect((await api('PUT', `/mutes/${author}`, { on: own, as: follower })).status).toBe(204);
    await eventually(async () => !(await storedCopies(follower)).includes(rk), { what: "the muted author's post left the feed", timeoutMs: 60_000 });
    const after = await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: controlCheckKey('mute', follower, author) }));
    expect(after.Item).toBeDefined();
    expect(after.Item?.cleanupPending).toBeUndefined(); // both cleanups queued: nothing owed
  });

  it('unmute: the retry queues the backfill the failed request never queued', async () => {
    const [follower, author] = [uid('unmute-f'), uid('unmute-a')];
    const rk = await followWithBackfill(follower, author);
    sendFault = undefined;
    expect((await api('PUT', `/mutes/${author}`, { on: own, as: follower })).status).toBe(204);
    await eventually(async () => !(await storedCopies(follower)).includes(rk), { what: 'the mute cleaned the feed', timeoutMs: 60_000 });

    const fault = failFirstSendOf('backfill');
    expect((await api('DELETE', `/mutes/${author}`, { on: own, as: follower })).status).toBe(500);
    expect(fault.failed()).toBe(1);
    expect((await api('GET', '/mutes', { on: own, as: follower })).body.items).toEqual([]); // the unmute committed
    const edge = await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: followEdgeKey(follower, author) }));
    expect(edge.Item?.backfillPending).toBe(true);

    expect((await api('DELETE', `/mutes/${author}`, { on: own, as: follower })).status).toBe(204);
    await eventually(async () => (await storedCopies(follower)).includes(rk), { what: "the unmuted author's post is back", timeoutMs: 60_000 });
  });

  it('block: the retry queues the unfollow cleanup the failed request never queued', async () => {
    const [follower, author] = [uid('block-f'), uid('block-a')];
    const rk = await followWithBackfill(follower, author);

    const fault = failFirstSendOf('cleanup');
    expect((await api('PUT', `/blocks/${follower}`, { on: own, as: author })).status).toBe(500);
    expect(fault.failed()).toBe(1);
    expect((await api('GET', `/users/${author}`, { on: own, as: author })).body.followers).toBe(0); // the follow ended

    expect((await api('PUT', `/blocks/${follower}`, { on: own, as: author })).status).toBe(204);
    await eventually(async () => !(await storedCopies(follower)).includes(rk), { what: "the blocker's post left the blocked user's feed", timeoutMs: 60_000 });
    sendFault = undefined;
  });
});

describe('contention past its retries', () => {
  it('is a 503 problem+json with Retry-After after the bounded, jittered retries, and writes nothing', async () => {
    const [follower, followee] = [uid('busy-f'), uid('busy-a')];
    const edgePk = followEdgeKey(follower, followee).pk;
    transactFault = (input) => JSON.stringify(input.TransactItems ?? [], (_, v) => (typeof v === 'bigint' ? String(v) : v)).includes(JSON.stringify(edgePk));
    transactFaults = 0;
    waits.length = 0;
    try {
      const res = await api('PUT', `/following/${followee}`, { on: own, as: follower });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.body).toMatchObject({ status: 503, code: 'unavailable', type: 'urn:tickfeed:problem:unavailable' });
    } finally {
      transactFault = undefined;
    }
    // RETRY.request: 8 attempts, 7 waits of r · min(500, 10 · 2^attempt) with r = 0.5.
    expect(transactFaults).toBe(8);
    expect(waits).toEqual([10, 20, 40, 80, 160, 250, 250]);
    const edge = await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: followEdgeKey(follower, followee) }));
    expect(edge.Item).toBeUndefined();
    expect((await api('GET', `/users/${followee}`, { on: own, as: followee })).body.followers).toBe(0);
    // The same request once the contention is gone: done.
    expect((await api('PUT', `/following/${followee}`, { on: own, as: follower })).status).toBe(204);
  });

  it('on a hot counter too (a reaction), with its own patience', async () => {
    const [author, reactor] = [uid('hot-a'), uid('hot-r')];
    const posted = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post' } });
    transactFault = (input) => JSON.stringify(input.TransactItems ?? [], (_, v) => (typeof v === 'bigint' ? String(v) : v)).includes(reactor);
    transactFaults = 0;
    try {
      const res = await api('PUT', `/activities/${encodeURIComponent(posted.body.id)}/reactions/like`, { on: own, as: reactor });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
    } finally {
      transactFault = undefined;
    }
    expect(transactFaults).toBe(12); // RETRY.counter
    expect((await api('GET', `/activities/${encodeURIComponent(posted.body.id)}`, { on: own, as: author })).body.reactions.counts).toEqual({});
  });
});
