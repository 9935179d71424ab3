/**
 * Activity-aware fan-out (FANOUT_ACTIVE_WINDOW, model/reader-activity.ts), on a stack of this file's
 * own without pollers: the test runs each job itself, in the order it wants — the fan-out worker
 * with a post's record, the stamp job a read queued — and reads through the feed handler in-process,
 * every DynamoDB call of it counted. A reader whose window passed is made so by writing a bound in
 * the past on their follows and their feed's head (what a stamp a window ago leaves once the window
 * is over), so nothing waits on the clock. Push tag follows (issue 34) obey the same rules: their
 * entries carry the bound, the tag fan-out skips a passed one, a return merges the tags' feeds and
 * the stamp writes their posts back.
 */
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CapacityMeter, meterCapacity } from '../../bench/capacity.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { feedHeadKey, parseFeedHead } from '../../functions/model/feed-head.js';
import { followEdgeKey, parseEdge } from '../../functions/model/follow-edge.js';
import { followListKey } from '../../functions/model/follow-lists.js';
import { tagFollowerKey, type TagFollow } from '../../functions/model/tag-items.js';
import { tagKeyOf } from '../../functions/model/tags.js';
import { timelinePartition } from '../../functions/model/timeline-item.js';
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
let stamp: (job: { kind: 'stamp'; reader: string; until?: string; since?: string; cursor?: string; tags?: true }) => Promise<void>;
let jobsOfRecord: (record: DynamoDBRecord) => { kind: string }[];
let writeBackTagCopies: (reader: string, follows: readonly TagFollow[], since: bigint, max: number) => Promise<void>;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, pollers: false, env: { FANOUT_ACTIVE_WINDOW: '30d' } });
  raw = new DynamoDBClient({ endpoint: stack.dynamoEndpoint, region: localRegion, credentials: localCredentials });
  meter = meterCapacity((await import('../../functions/platform/clients.js')).dynamo);
  fanoutWorker = (await import('../../functions/handlers/fanout-worker.js')).handler;
  feedRead = (await import('../../functions/handlers/feed-read.js')).handler;
  stamp = (await import('../../functions/services/reader-activity/stamp.js')).stamp;
  jobsOfRecord = (await import('../../functions/services/jobs/outbox-jobs.js')).jobsOfRecord;
  writeBackTagCopies = (await import('../../functions/services/tags/write-back.js')).writeBackTagCopies;
}, 120_000);

afterAll(async () => {
  raw?.destroy();
  await stopOwnStack();
});

/** A second ago: a bound that has passed. */
const passed = () => nowTicks() - 1_000_000_000n;

/** Write `until` as the activity bound on the graph item at `key` (a followers entry, a tag's push follower). */
const setEntryBound = (key: { pk: string; sk: string }, until: bigint) =>
  doc.send(
    new UpdateCommand({
      TableName: stack.tableNames.graph,
      Key: key,
      UpdateExpression: 'SET activeUntil = :u',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':u': until },
    }),
  );

const setHeadBound = (reader: string, until: bigint) =>
  doc.send(
    new UpdateCommand({
      TableName: stack.tableNames.feed,
      Key: feedHeadKey(reader),
      UpdateExpression: 'SET activeUntil = :u',
      ExpressionAttributeValues: { ':u': until },
    }),
  );

/** Write `until` as `reader`'s activity bound on their follows of `followees` and on their feed's head. */
async function setBound(reader: string, followees: readonly string[], until: bigint): Promise<void> {
  for (const followee of followees) {
    const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: followEdgeKey(reader, followee), ConsistentRead: true }));
    await setEntryBound(followListKey('followers', followee, parseEdge(Item)!.order, reader), until);
  }
  await setHeadBound(reader, until);
}

/** Write `until` as `reader`'s activity bound on their entries among `tags`' push followers and on their feed's head. */
async function setTagBound(reader: string, tags: readonly string[], until: bigint): Promise<void> {
  for (const tag of tags) await setEntryBound(tagFollowerKey(tagKeyOf(tag), reader), until);
  await setHeadBound(reader, until);
}

/** `reader`'s bound on their entry among `tag`'s push followers. */
async function tagEntryBound(tag: string, reader: string): Promise<bigint | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: tagFollowerKey(tagKeyOf(tag), reader), ConsistentRead: true }));
  return Item?.activeUntil === undefined ? undefined : BigInt(String(Item.activeUntil));
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

/**
 * `author` posts `content` (its #tags); the fan-out worker runs the tag fan-outs the outbox makes of
 * its INSERT (`run: false`: not yet). The post's own fan-out is not run: these tests' readers follow tags.
 */
async function postTagged(author: string, content: string, run = true): Promise<{ activity: Activity; fanout: () => Promise<void>; Records: SQSRecord[] }> {
  const activity = await mustPost(author, { verb: 'post', content }, own);
  const { Items } = await raw.send(
    new QueryCommand({
      TableName: stack.tableNames.feed,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: timelinePartition(author) } },
      Limit: 1,
    }),
  );
  const jobs = jobsOfRecord({ eventName: 'INSERT', dynamodb: { NewImage: Items![0]! as never, SequenceNumber: '1' } }).filter((j) => j.kind === 'tagFanout');
  expect(jobs.length).toBeGreaterThan(0);
  const Records = jobs.map(
    (job) =>
      ({
        messageId: uid('m'),
        body: JSON.stringify(job),
        attributes: { SentTimestamp: String(Date.now()), ApproximateReceiveCount: '1' },
      }) as unknown as SQSRecord,
  );
  const fanout = async () => {
    expect(await fanoutWorker({ Records })).toEqual({ batchItemFailures: [] });
  };
  if (run) await fanout();
  return { activity, fanout, Records };
}

/** A fresh tag (letters and digits only), unique per test. */
const freshTag = (prefix: string) => `${prefix}${uid('').replace(/-/g, '')}`;

const followTag = async (reader: string, tag: string) => expect((await api('PUT', `/following/tags/${tag}`, { as: reader, on: own })).status).toBe(204);

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
    // The home feed, the reader's follows (their edges) and followed tags (none), the one followee's timeline.
    expect(first.queries).toBe(4);
    expect(first.calls).toBe(4);

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

describe('activity-aware tag fan-out (push tag follows)', () => {
  it('copies a tagged post only to tag followers still reading; a returning one’s first page has it at once, and their stamp writes it back', async () => {
    const author = uid('author');
    const tag = freshTag('active');
    const [reading, returning, unstamped] = [uid('reading'), uid('returning'), uid('unstamped')];
    for (const r of [reading, returning, unstamped]) await followTag(r, tag);
    await setTagBound(reading, [tag], nowTicks() + 3_600_000_000_000n);
    const away = passed();
    await setTagBound(returning, [tag], away);
    await queuedStamps(); // the follows' own jobs are not this test's
    const p1 = (await postTagged(author, `one #${tag}`)).activity;
    const p2 = (await postTagged(author, `two #${tag}`)).activity;

    // The returning reader's window passed before both posts: no copies for them; the others have both.
    expect(await storedCopies(returning)).toEqual([]);
    expect(await storedCopies(reading)).toEqual([p2.rangeKey, p1.rangeKey]);
    expect(await storedCopies(unstamped)).toEqual([p2.rangeKey, p1.rangeKey]); // no bound yet: copied as always

    // Their first page is what a reader who never left sees: merged from the tag's feed.
    const first = await page(returning);
    expect(first.ids).toEqual([p2.id, p1.id]);
    expect(first.ids).toEqual((await page(reading)).ids);
    // The home feed, the reader's follows (their edges) and followed tags, the tag's feed, their controls (mutes and blocks apply).
    expect(first.queries).toBe(5);
    expect(first.calls).toBe(5);

    // The read queued one stamp job: it raises the tag entry's bound, writes the copies back, raises the head last.
    const job = await stampOf(returning);
    expect(job.since).toBe(String(away));
    await stamp(job);
    expect(await storedCopies(returning)).toEqual([p2.rangeKey, p1.rangeKey]);
    expect((await tagEntryBound(tag, returning))! > nowTicks()).toBe(true);
    expect((await headBound(returning))! > nowTicks()).toBe(true);
    const after = await page(returning);
    expect(after.ids).toEqual([p2.id, p1.id]);
    expect(after.calls).toBe(1); // a single Query again

    // Delivered again: the same copies, nothing twice, no bound lowered.
    const [bound, entry] = [await headBound(returning), await tagEntryBound(tag, returning)];
    await stamp(job);
    expect(await storedCopies(returning)).toEqual([p2.rangeKey, p1.rangeKey]);
    expect(await headBound(returning)).toBe(bound);
    expect(await tagEntryBound(tag, returning)).toBe(entry);

    // Stamped, they get the next post's copy from its tag fan-out.
    const p3 = (await postTagged(author, `three #${tag}`)).activity;
    expect(await storedCopies(returning)).toEqual([p3.rangeKey, p2.rangeKey, p1.rangeKey]);
  }, 60_000);

  it('a return while a tagged post’s fan-out is queued, in either order, with a delete and a muted author, leaves each post once and nothing unwanted', async () => {
    const [author, muted] = [uid('author'), uid('muted')];
    const tag = freshTag('order');
    const [early, late] = [uid('early'), uid('late')];
    for (const r of [early, late]) {
      await followTag(r, tag);
      expect((await api('PUT', `/mutes/${muted}`, { as: r, on: own })).status).toBe(204);
    }
    const before = (await postTagged(author, `before they left #${tag}`)).activity;
    for (const r of [early, late]) await setTagBound(r, [tag], passed());
    await queuedStamps(); // the follows' and mutes' own jobs are not this test's
    const deleted = await postTagged(author, `deleted #${tag}`);
    expect((await api('DELETE', `/activities/${deleted.activity.id}`, { as: author, on: own })).status).toBe(204);
    await postTagged(muted, `from a muted author #${tag}`);
    const kept = await postTagged(author, `kept #${tag}`, false);

    // Both return while `kept` waits for its fan-out: their pages are what a reader who never left
    // sees (kept not yet in the tag, the deleted post gone, the muted author's hidden).
    for (const r of [early, late]) expect((await page(r)).ids).toEqual([before.id]);
    const jobs = await queuedStamps();

    // early: stamped before the fan-out runs (which then copies to them as to anyone reading);
    // late: the fan-out runs first (skipping them), then their stamp writes the copy back.
    await stamp(jobs.find((j) => j.reader === early)!);
    await kept.fanout();
    expect(await storedCopies(late)).toEqual([before.rangeKey]);
    await stamp(jobs.find((j) => j.reader === late)!);
    for (const r of [early, late]) {
      expect(await storedCopies(r)).toEqual([kept.activity.rangeKey, before.rangeKey]);
      const after = await page(r);
      expect(after.ids).toEqual([kept.activity.id, before.id]);
      expect(after.calls).toBe(1);
    }
  }, 60_000);

  it('takes back what a write-back brought by a tag unfollowed meanwhile, unless another road still brings it', async () => {
    const [author, followee, reader] = [uid('author'), uid('followee'), uid('reader')];
    const [keep, drop] = [freshTag('keep'), freshTag('drop')];
    for (const t of [keep, drop]) await followTag(reader, t);
    expect((await api('PUT', `/following/${followee}`, { as: reader, on: own })).status).toBe(204);
    const since = passed();
    await setTagBound(reader, [keep, drop], since);
    const onlyDropped = (await postTagged(author, `#${drop}`)).activity;
    const both = (await postTagged(author, `#${drop} #${keep}`)).activity;
    const byFollowee = (await postTagged(followee, `#${drop}`)).activity;
    const onlyKept = (await postTagged(author, `#${keep}`)).activity;
    expect(await storedCopies(reader)).toEqual([]);

    // The stamp read the reader's tag follows, then `drop` was unfollowed before its write-back ran.
    const follows = [keep, drop].map((t): TagFollow => ({ tag: t, key: tagKeyOf(t), followedAt: 0n, mode: 'push' }));
    expect((await api('DELETE', `/following/tags/${drop}`, { as: reader, on: own })).status).toBe(204);
    await writeBackTagCopies(reader, follows, since, 1000);
    // Only `drop` brought the first; the second has `keep` too, the third its followed author.
    expect(await storedCopies(reader)).toEqual([onlyKept.rangeKey, byFollowee.rangeKey, both.rangeKey]);
    expect(await storedCopies(reader)).not.toContain(onlyDropped.rangeKey);
  }, 60_000);

  it('with FANOUT_ACTIVE_WINDOW=off, copies to every tag follower, a passed bound or not', async () => {
    const author = uid('author');
    const tag = freshTag('off');
    const [returning, unstamped] = [uid('returning'), uid('unstamped')];
    for (const r of [returning, unstamped]) await followTag(r, tag);
    await setTagBound(returning, [tag], passed());
    const post = await postTagged(author, `#${tag}`, false);
    // The worker as a deployment with `off` loads it: settings are read once per module instance.
    const window = process.env.FANOUT_ACTIVE_WINDOW;
    process.env.FANOUT_ACTIVE_WINDOW = 'off';
    vi.resetModules();
    try {
      const offWorker = (await import('../../functions/handlers/fanout-worker.js')).handler as Handler<SQSEvent>;
      expect(await offWorker({ Records: post.Records })).toEqual({ batchItemFailures: [] });
    } finally {
      process.env.FANOUT_ACTIVE_WINDOW = window;
      vi.resetModules();
    }
    for (const r of [returning, unstamped]) expect(await storedCopies(r)).toEqual([post.activity.rangeKey]);
  }, 60_000);
});
