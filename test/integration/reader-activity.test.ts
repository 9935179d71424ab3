/**
 * Activity-aware fan-out (FANOUT_ACTIVE_WINDOW, model/reader-activity.ts), on a stack of this file's
 * own without pollers: the test runs each job itself, in the order it wants — the fan-out worker
 * with a post's record, the stamp job a read queued — and reads through the feed handler in-process,
 * every DynamoDB call of it counted. A reader whose window passed is made so by writing a bound in
 * the past on their follows and their feed's head (what a stamp a window ago leaves once the window
 * is over), so nothing waits on the clock.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapacityMeter, meterCapacity } from '../../bench/capacity.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { feedHeadKey, parseFeedHead } from '../../functions/model/feed-head.js';
import { followEdgeKey, parseEdge } from '../../functions/model/follow-edge.js';
import { followListKey } from '../../functions/model/follow-lists.js';
import { nowTicks } from '../../functions/platform/clock.js';
import type { Activity } from '../../functions/model/activity.js';
import { api, mustPost } from '../support/api.js';
import { httpEvent } from '../support/events.js';
import { fanoutRecord } from '../support/fanout-record.js';
import { seedFollowers } from '../support/graph-seed.js';
import { uid } from '../support/ids.js';
import { doc, own, sqs, stack, startOwnStack, stopOwnStack, storedCopies } from '../support/own-stack.js';

type Handler<E> = (event: E) => Promise<unknown>;
interface FeedBody {
  items: Activity[];
  lastRangeKey: string | null;
}

let raw: DynamoDBClient;
let meter: CapacityMeter;
let fanoutWorker: Handler<SQSEvent>;
let feedRead: Handler<ReturnType<typeof httpEvent>>;
let stamp: (job: { kind: 'stamp'; reader: string; until?: string; since?: string; cursor?: string }) => Promise<void>;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, pollers: false, env: { FANOUT_ACTIVE_WINDOW: '30d' } });
  raw = new DynamoDBClient({ endpoint: stack.dynamoEndpoint, region: localRegion, credentials: localCredentials });
  meter = meterCapacity((await import('../../functions/platform/clients.js')).dynamo);
  fanoutWorker = (await import('../../functions/handlers/fanout-worker.js')).handler as Handler<SQSEvent>;
  feedRead = (await import('../../functions/handlers/feed-read.js')).handler as Handler<ReturnType<typeof httpEvent>>;
  stamp = (await import('../../functions/services/reader-activity/stamp.js')).stamp;
}, 120_000);

afterAll(async () => {
  raw?.destroy();
  await stopOwnStack();
});

/** A second ago: a bound that has passed. */
const passed = () => nowTicks() - 1_000_000_000n;

/** Write `until` as `reader`'s activity bound on their follows of `followees` and on their feed's head. */
async function setBound(reader: string, followees: readonly string[], until: bigint): Promise<void> {
  for (const followee of followees) {
    const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: followEdgeKey(reader, followee), ConsistentRead: true }));
    const key = followListKey('followers', followee, parseEdge(Item)!.order, reader);
    await doc.send(new UpdateCommand({ TableName: stack.tableNames.graph, Key: key, UpdateExpression: 'SET activeUntil = :u', ExpressionAttributeValues: { ':u': until } }));
  }
  await doc.send(new UpdateCommand({ TableName: stack.tableNames.feed, Key: feedHeadKey(reader), UpdateExpression: 'SET activeUntil = :u', ExpressionAttributeValues: { ':u': until } }));
}

const headBound = async (reader: string) =>
  parseFeedHead((await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: feedHeadKey(reader), ConsistentRead: true }))).Item).activeUntil;

/** `author` posts; the fan-out worker runs the post's first page (`run: false`: not yet). */
async function post(author: string, content: string, run = true): Promise<{ activity: Activity; fanout: () => Promise<void> }> {
  const activity = await mustPost(author, { verb: 'post', content }, own);
  const record = await fanoutRecord(raw, stack.tableNames.feed, author);
  const fanout = async () => {
    expect(await fanoutWorker({ Records: [record] })).toEqual({ batchItemFailures: [] });
  };
  if (run) await fanout();
  return { activity, fanout };
}

/** `reader`'s home-feed page through the handler, with the DynamoDB calls it made. */
async function page(reader: string, query: Record<string, string> = {}): Promise<{ ids: string[]; body: FeedBody; queries: number; calls: number }> {
  const before = meter.snapshot();
  const res = (await feedRead(httpEvent({ routeKey: 'GET /feed', path: '/feed', sub: reader, query }))) as { statusCode: number; body: string };
  const spent = meter.since(before);
  expect(res.statusCode).toBe(200);
  const body = JSON.parse(res.body) as FeedBody;
  const calls = Object.values(spent.calls).reduce((a, b) => a + (b ?? 0), 0);
  return { ids: body.items.map((i) => i.id), body, queries: spent.calls.QueryCommand ?? 0, calls };
}

/** The stamp jobs waiting on the followup lane (received and so taken off it). */
async function queuedStamps(): Promise<{ kind: 'stamp'; reader: string; until?: string; since?: string }[]> {
  const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: stack.queueUrls.followup, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
  return (out.Messages ?? []).map((m) => JSON.parse(m.Body!) as { kind: string }).filter((j): j is { kind: 'stamp'; reader: string } => j.kind === 'stamp');
}

async function stampOf(reader: string) {
  const jobs = (await queuedStamps()).filter((j) => j.reader === reader);
  expect(jobs).toHaveLength(1);
  return jobs[0]!;
}

describe('activity-aware fan-out', () => {
  it('copies a post only to followers still reading; a returning reader’s first page has it at once, and their stamp writes it back', async () => {
    const author = uid('author');
    const [reading, returning, unstamped] = await seedFollowers(author, 3, { on: own });
    await setBound(reading!, [author], nowTicks() + 3_600_000_000_000n);
    const away = passed();
    await setBound(returning!, [author], away);
    const p1 = (await post(author, 'one')).activity;
    const p2 = (await post(author, 'two')).activity;

    // The returning reader's window passed before both posts: no copies for them; the others have both.
    expect(await storedCopies(returning!)).toEqual([]);
    expect(await storedCopies(reading!)).toEqual([p2.rangeKey, p1.rangeKey]);
    expect(await storedCopies(unstamped!)).toEqual([p2.rangeKey, p1.rangeKey]); // no bound yet: copied as always

    // Their first page is what a reader who never left sees: merged from the author's timeline.
    const first = await page(returning!);
    expect(first.ids).toEqual([p2.id, p1.id]);
    expect(first.ids).toEqual((await page(reading!)).ids);
    // The home feed, the reader's follows (their edges), the one followee's timeline.
    expect(first.queries).toBe(3);
    expect(first.calls).toBe(3);

    // The read queued one stamp job, from where the copies stopped; it writes them back and raises the head last.
    const job = await stampOf(returning!);
    expect(job.since).toBe(String(away));
    await stamp(job);
    expect(await storedCopies(returning!)).toEqual([p2.rangeKey, p1.rangeKey]);
    expect((await headBound(returning!))! > nowTicks()).toBe(true);
    const after = await page(returning!);
    expect(after.ids).toEqual([p2.id, p1.id]);
    expect(after.calls).toBe(1); // a single Query again

    // Delivered again: the same copies, nothing twice, the bound not lowered.
    const bound = await headBound(returning!);
    await stamp(job);
    expect(await storedCopies(returning!)).toEqual([p2.rangeKey, p1.rangeKey]);
    expect(await headBound(returning!)).toBe(bound);

    // Stamped, they get the next post's copy from its fan-out.
    const p3 = (await post(author, 'three')).activity;
    expect(await storedCopies(returning!)).toEqual([p3.rangeKey, p2.rangeKey, p1.rangeKey]);
  }, 60_000);

  it('a return while a post’s fan-out is queued, in either order, and with a delete and a mute, leaves each post once and nothing unwanted', async () => {
    const author = uid('author');
    const muted = uid('muted');
    const [early, late] = await seedFollowers(author, 2, { on: own });
    for (const r of [early!, late!]) {
      expect((await api('PUT', `/following/${muted}`, { as: r, on: own })).status).toBe(204);
      expect((await api('PUT', `/mutes/${muted}`, { as: r, on: own })).status).toBe(204);
      await setBound(r, [author, muted], passed());
    }
    await queuedStamps(); // the follows' and mutes' own jobs are not this test's
    const kept = await post(author, 'kept', false);
    const deleted = await post(author, 'deleted');
    expect((await api('DELETE', `/activities/${deleted.activity.id}`, { as: author, on: own })).status).toBe(204);
    await post(muted, 'from a muted followee');

    // Both return while `kept` waits for its fan-out: their pages have it (merged), not the deleted
    // post, not the muted followee's.
    for (const r of [early!, late!]) expect((await page(r)).ids).toEqual([kept.activity.id]);
    const jobs = await queuedStamps();

    // early: stamped before the fan-out runs (which then copies to them as to anyone reading);
    // late: the fan-out runs first (skipping them), then their stamp writes the copy back.
    await stamp(jobs.find((j) => j.reader === early)!);
    await kept.fanout();
    await stamp(jobs.find((j) => j.reader === late)!);
    for (const r of [early!, late!]) {
      expect(await storedCopies(r)).toEqual([kept.activity.rangeKey]);
      const after = await page(r);
      expect(after.ids).toEqual([kept.activity.id]);
      expect(after.calls).toBe(1);
    }
  }, 60_000);
});
