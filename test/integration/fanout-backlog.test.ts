/**
 * Fresh posts first (services/jobs/backlog.ts) on a stack of this file's own, without pollers, with
 * FANOUT_BACKLOG_AFTER=0s: every job the fanout lane receives has waited past the deadline and is
 * handed, unrun, to the fanoutBacklog queue (the real local SQS queue), as under a standing backlog.
 * The workers run in-process on the records this test hands them, so the order between the lanes is
 * the test's: an edit and a delete made while the page waits in the backlog, a handed-on page
 * delivered twice, a large author's further page. Each follower holds the post exactly once, at its
 * latest version, or not at all.
 */
import { type DynamoDBClient, DynamoDBClient as Dynamo } from '@aws-sdk/client-dynamodb';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_FANOUT_PAGE } from '../../functions/services/follower-pages.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { queueDepth } from '../../local/queue-depth.js';
import { api, mustPost } from '../support/api.js';
import { fanoutRecord } from '../support/fanout-record.js';
import { seedFollowers } from '../support/graph-seed.js';
import { uid } from '../support/ids.js';
import { own, sqs, stack, startOwnStack, stopOwnStack, storedCopies } from '../support/own-stack.js';

type Worker = (event: SQSEvent) => Promise<unknown>;
let raw: DynamoDBClient;
let fanoutWorker: Worker;
let fanoutBacklogWorker: Worker;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, pollers: false, env: { FANOUT_BACKLOG_AFTER: '0s', FANOUT_ACTIVE_WINDOW: 'off' } });
  raw = new Dynamo({ endpoint: stack.dynamoEndpoint, region: localRegion, credentials: localCredentials });
  fanoutWorker = (await import('../../functions/handlers/fanout-worker.js')).handler;
  fanoutBacklogWorker = (await import('../../functions/handlers/fanout-backlog-worker.js')).handler;
}, 120_000);

afterAll(async () => {
  raw?.destroy();
  await stopOwnStack();
});

/** The messages waiting on the fanoutBacklog queue (received: each comes back after its visibility timeout unless deleted). */
async function backlogged(): Promise<SQSRecord[]> {
  const out = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: stack.queueUrls.fanoutBacklog, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, AttributeNames: ['All'] }),
  );
  // Taken off the queue: the test hands them to the worker itself.
  for (const m of out.Messages ?? []) await sqs.send(new DeleteMessageCommand({ QueueUrl: stack.queueUrls.fanoutBacklog, ReceiptHandle: m.ReceiptHandle! }));
  return (out.Messages ?? []).map(
    (m) =>
      ({
        messageId: m.MessageId!,
        body: m.Body!,
        attributes: { SentTimestamp: m.Attributes!.SentTimestamp!, ApproximateReceiveCount: m.Attributes!.ApproximateReceiveCount! },
      }) as unknown as SQSRecord,
  );
}

/** `author` posts; the fanout lane receives the post's first page and hands it to the backlog. */
async function postIntoBacklog(author: string, content: string): Promise<{ id: string; rangeKey: string; record: SQSRecord }> {
  const post = await mustPost(author, { verb: 'post', content }, own);
  const first = await fanoutRecord(raw, stack.tableNames.feed, author);
  expect(await fanoutWorker({ Records: [first] })).toEqual({ batchItemFailures: [] });
  const [record, ...more] = await backlogged();
  expect(more).toEqual([]);
  expect(JSON.parse(record!.body)).toEqual({ ...JSON.parse(first.body), late: true }); // handed on unrun, marked late
  return { id: post.id, rangeKey: post.rangeKey, record: record! };
}

const copiesOf = async (followers: readonly string[], rangeKey: string) =>
  Promise.all(followers.map(async (f) => (await storedCopies(f)).filter((rk) => rk === rangeKey).length));

describe('a fan-out handed to the backlog', () => {
  it('writes nothing on the fanout lane, then each follower’s copy exactly once from the backlog — delivered twice', async () => {
    const author = uid('bl-author');
    const followers = await seedFollowers(author, 12, { on: own });
    const { rangeKey, record } = await postIntoBacklog(author, 'from the backlog');
    expect(await copiesOf(followers, rangeKey)).toEqual(followers.map(() => 0));

    expect(await fanoutBacklogWorker({ Records: [record] })).toEqual({ batchItemFailures: [] });
    // Its message came back (the worker died before the delete): the same page again.
    const again = { ...record, attributes: { ...record.attributes, ApproximateReceiveCount: '2' } };
    expect(await fanoutBacklogWorker({ Records: [again] })).toEqual({ batchItemFailures: [] });
    expect(await copiesOf(followers, rangeKey)).toEqual(followers.map(() => 1));
    expect((await storedCopies(author)).filter((rk) => rk === rangeKey)).toHaveLength(1);
  });

  it('sends a handed-on page’s further page to the backlog after it, not to the tail lane, and copies to every follower once', async () => {
    const author = uid('bl-large');
    const followers = await seedFollowers(author, FIRST_FANOUT_PAGE + 20, { on: own });
    const { rangeKey, record } = await postIntoBacklog(author, 'a large author, late');

    expect(await fanoutBacklogWorker({ Records: [record] })).toEqual({ batchItemFailures: [] });
    const [further, ...more] = await backlogged();
    expect(more).toEqual([]);
    expect(JSON.parse(further!.body)).toEqual({ ...JSON.parse(record.body), cursor: expect.any(String) });
    expect(await queueDepth({ sqs, stack }, 'fanoutTail')).toBe(0);
    expect(await fanoutBacklogWorker({ Records: [further!] })).toEqual({ batchItemFailures: [] });
    expect(await copiesOf(followers, rangeKey)).toEqual(followers.map(() => 1));
  });

  it('copies the edit made while the page waited in the backlog, not the post as first written', async () => {
    const author = uid('bl-editor');
    const followers = await seedFollowers(author, 5, { on: own });
    const { id, record } = await postIntoBacklog(author, 'helo wrold');
    const edit = await api('PATCH', `/activities/${id}`, { as: author, json: { content: 'hello world' }, on: own });
    expect(edit.status).toBe(200);

    expect(await fanoutBacklogWorker({ Records: [record] })).toEqual({ batchItemFailures: [] });
    for (const f of followers) {
      const feed = await api('GET', '/feed', { as: f, on: own });
      const items = (feed.body as { items: { id: string; content: string; version: number }[] }).items.filter((i) => i.id === id);
      expect(items).toEqual([expect.objectContaining({ content: 'hello world', version: 2 })]);
    }
  });

  it('writes nothing for a post deleted while its page waited in the backlog', async () => {
    const author = uid('bl-deleter');
    const followers = await seedFollowers(author, 5, { on: own });
    const { id, rangeKey, record } = await postIntoBacklog(author, 'soon gone');
    expect((await api('DELETE', `/activities/${id}`, { as: author, on: own })).status).toBe(204);

    expect(await fanoutBacklogWorker({ Records: [record] })).toEqual({ batchItemFailures: [] });
    expect(await copiesOf(followers, rangeKey)).toEqual(followers.map(() => 0));
  });

  it('runs a message that came back where it is: as a redelivery, it takes back what it may have written before a delete', async () => {
    const author = uid('bl-again');
    const followers = await seedFollowers(author, 5, { on: own });
    const post = await mustPost(author, { verb: 'post', content: 'written, then the worker died' }, own);
    const first = await fanoutRecord(raw, stack.tableNames.feed, author);
    // Its first delivery ran (here, the copies) and died before its delete; the post is deleted meanwhile.
    expect(await fanoutBacklogWorker({ Records: [first] })).toEqual({ batchItemFailures: [] });
    expect(await copiesOf(followers, post.rangeKey)).toEqual(followers.map(() => 1));
    expect((await api('DELETE', `/activities/${post.id}`, { as: author, on: own })).status).toBe(204);
    // It comes back, long after it was sent: run on fanout, not handed on (there it would be a first delivery).
    const again = { ...first, attributes: { ...first.attributes, ApproximateReceiveCount: '2' } };
    expect(await fanoutWorker({ Records: [again] })).toEqual({ batchItemFailures: [] });
    expect(await backlogged()).toEqual([]);
    expect(await copiesOf(followers, post.rangeKey)).toEqual(followers.map(() => 0));
  });
});
