/**
 * A notify lane batch pays per batch (services/notifications/batch.ts): the notify worker is handed
 * one SQS batch of jobs for many recipients, on a stack of its own without pollers (nothing else
 * calls DynamoDB meanwhile), and every call it makes is metered. The reads every job starts from are
 * one BatchGet for the batch, the heads for the count retention one more, who is connected at most
 * one Query; the groups' first writes share transactions (as many as fit in one, a check on one
 * post made once), and a shared transaction that does not commit leaves each group to be applied
 * on its own — and the notifications are exactly what one job at a time would make: one per
 * recipient, a redelivered batch writing nothing, a recipient's 25 events (two folds of at most 20)
 * all counted, a muted actor silenced.
 */
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapacityMeter, meterCapacity } from '../../bench/capacity.js';
import type { NotificationPage } from '../../functions/services/notifications/read-notifications.js';
import { notifyJobs, postDeliveries } from '../../functions/services/notifications/events.js';
import { api, mustPost } from '../support/api.js';
import { uid } from '../support/ids.js';
import { own, startOwnStack, stopOwnStack } from '../support/own-stack.js';

let meter: CapacityMeter;
/** Set by a test: the handlers' next TransactWriteItems of more than one group is cancelled as a lost race would be. */
let cancelNextShared = false;
let handler: (event: SQSEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, pollers: false });
  const clients = await import('../../functions/platform/clients.js');
  meter = meterCapacity(clients.dynamo);
  clients.dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const items = (args.input as { TransactItems?: unknown[] }).TransactItems ?? [];
      if (context.commandName === 'TransactWriteItemsCommand' && cancelNextShared && items.length > 10) {
        cancelNextShared = false;
        const { TransactionCanceledException } = await import('@aws-sdk/client-dynamodb');
        throw new TransactionCanceledException({ message: 'injected', $metadata: {}, CancellationReasons: items.map(() => ({ Code: 'TransactionConflict' })) });
      }
      return next(args);
    },
    { step: 'initialize', name: 'cancelSharedTransaction' },
  );
  handler = (await import('../../functions/handlers/notify-worker.js')).handler;
}, 120_000);

afterAll(stopOwnStack);

let ticks = BigInt(Date.now()) * 1_000_000n;

/** A notify job's message: `actor` followed `recipient` now. */
function followRecord(recipient: string, actor: string): SQSRecord {
  ticks += 1_000n;
  const event = { kind: 'follow', verb: 'follow', object: recipient, actor, id: `follow:${actor}:${ticks}`, ticks: String(ticks) };
  return {
    messageId: uid('m'),
    body: JSON.stringify({ kind: 'notify', recipient, events: [event] }),
    attributes: { SentTimestamp: String(Date.now()), ApproximateReceiveCount: '1' },
  } as unknown as SQSRecord;
}

/** The notify jobs the outbox would send for `author`'s post mentioning `mentioned` (functions/services/jobs/outbox-jobs.ts). */
async function mentionRecords(author: string, mentioned: readonly string[]): Promise<SQSRecord[] & { rk: bigint }> {
  const content = mentioned.map((m) => `@${m}`).join(' ');
  const rk = BigInt((await mustPost(author, { verb: 'post', content }, own)).rangeKey);
  const records = notifyJobs(postDeliveries({ author, rk, verb: 'post', content })).map(
    (job) =>
      ({
        messageId: uid('m'),
        body: JSON.stringify(job),
        attributes: { SentTimestamp: String(Date.now()), ApproximateReceiveCount: '1' },
      }) as unknown as SQSRecord,
  );
  return Object.assign(records, { rk });
}

/** The DynamoDB calls the worker made for `event`, by command, and its reported failures. */
async function run(event: SQSEvent) {
  const before = meter.snapshot();
  const out = await handler(event);
  return { calls: meter.since(before).calls, failures: out.batchItemFailures };
}

const page = async (user: string) => (await api('GET', '/notifications?limit=10', { on: own, as: user })).body as NotificationPage;

describe('a notify batch', () => {
  it('reads once for all its recipients, writes them in one transaction, and a redelivery writes nothing', async () => {
    const recipients = Array.from({ length: 12 }, () => uid('rcpt'));
    const records = recipients.map((r) => followRecord(r, uid('fan')));
    const first = await run({ Records: records });
    expect(first.failures).toEqual([]);
    // 12 recipients × (mute, block, follow edge, erase mark, group, claim, head) = 84 keys: one BatchGet; the heads: one more.
    expect(first.calls.BatchGetItemCommand).toBe(2);
    expect(first.calls.TransactWriteItemsCommand).toBe(1); // 12 groups of 5 items (group, order, claim, actor index, head) fit one
    expect(first.calls.GetItemCommand ?? 0).toBe(0);
    expect(first.calls.QueryCommand ?? 0).toBeLessThanOrEqual(1); // who is connected, when realtime is on
    for (const r of recipients) {
      const p = await page(r);
      expect(p.items).toHaveLength(1);
      expect(p.unseen).toBe(1);
    }
    const again = await run({ Records: records.map((r) => ({ ...r, messageId: uid('m') })) });
    expect(again.failures).toEqual([]);
    expect(again.calls.TransactWriteItemsCommand ?? 0).toBe(0);
    expect(again.calls.BatchGetItemCommand).toBe(1); // the shared read shows every claim: nothing to apply, no head to read
    expect((await page(recipients[0]!)).unseen).toBe(1);
  });

  it('applies a recipient’s 25 events in two folds, the second after the first, and every actor is counted', async () => {
    const star = uid('star');
    const out = await run({ Records: Array.from({ length: 25 }, () => followRecord(star, uid('fan'))) });
    expect(out.failures).toEqual([]);
    const p = await page(star);
    expect(p.items).toHaveLength(1);
    expect(p.items[0]!.actorCount).toBe(25);
  });

  it('leaves out a muted actor, read in the shared read', async () => {
    const [quiet, pest, friend] = [uid('quiet'), uid('pest'), uid('friend')];
    expect((await api('PUT', `/mutes/${pest}`, { on: own, as: quiet })).status).toBe(204);
    const out = await run({ Records: [followRecord(quiet, pest), followRecord(quiet, friend), followRecord(uid('other'), pest)] });
    expect(out.failures).toEqual([]);
    const p = await page(quiet);
    expect(p.items).toHaveLength(1);
    expect(p.items[0]!.actorCount).toBe(1);
  });

  it('checks a post once for all the users it mentions, in one transaction', async () => {
    const author = uid('author');
    const mentioned = Array.from({ length: 5 }, () => uid('m'));
    const out = await run({ Records: await mentionRecords(author, mentioned) });
    expect(out.failures).toEqual([]);
    expect(out.calls.TransactWriteItemsCommand).toBe(1); // the same check on the post, asked by every group, sent once
    for (const m of mentioned) expect((await page(m)).items).toHaveLength(1);
  });

  it('applies each group on its own when the shared transaction does not commit, still once per recipient', async () => {
    const recipients = Array.from({ length: 4 }, () => uid('rcpt'));
    cancelNextShared = true;
    const out = await run({ Records: recipients.map((r) => followRecord(r, uid('fan'))) });
    expect(out.failures).toEqual([]);
    expect(cancelNextShared).toBe(false); // the shared transaction was sent, and cancelled
    expect(out.calls.TransactWriteItemsCommand).toBe(recipients.length); // one each, after it (the fault stops it before the meter)
    for (const r of recipients) {
      const p = await page(r);
      expect(p.items).toHaveLength(1);
      expect(p.unseen).toBe(1);
    }
  });

  it('sends two groups of one recipient in two transactions (both change the head), and counts both', async () => {
    const [author, fan] = [uid('author'), uid('fan')];
    const star = uid('star');
    const out = await run({ Records: [followRecord(star, fan), ...(await mentionRecords(author, [star]))] });
    expect(out.failures).toEqual([]);
    expect(out.calls.TransactWriteItemsCommand).toBe(2);
    const p = await page(star);
    expect(p.items).toHaveLength(2);
    expect(p.unseen).toBe(2);
  });

  it('sends a shared transaction a condition cancelled once more without the changes that failed', async () => {
    const author = uid('author');
    const mentioned = [uid('m'), uid('m')];
    const mentions = await mentionRecords(author, mentioned);
    // The post is deleted before its mentions are applied: their check on it fails, the follows do not.
    const { markOriginalDeleted } = await import('../../functions/stores/feed-store.js');
    expect(await markOriginalDeleted(author, mentions.rk, Math.floor(Date.now() / 1000))).toBeDefined();
    const recipients = Array.from({ length: 3 }, () => uid('rcpt'));
    const out = await run({ Records: [...recipients.map((r) => followRecord(r, uid('fan'))), ...mentions] });
    expect(out.failures).toEqual([]);
    // The shared transaction is cancelled, the follows are sent again together and commit, then each
    // mention on its own is cancelled too (dropped: its post is gone). The meter counts the calls
    // that succeed: one — where the follows on their own would have made three.
    expect(out.calls.TransactWriteItemsCommand).toBe(1);
    for (const r of recipients) expect((await page(r)).items).toHaveLength(1);
    for (const m of mentioned) expect((await page(m)).items).toHaveLength(0);
  });
});
