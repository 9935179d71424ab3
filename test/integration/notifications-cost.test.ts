/**
 * What notification reads and enriched pages cost, and count retention, on a stack of its own
 * (handlers and worker in this process, so every DynamoDB call they make is metered):
 *  - GET /notifications/counts is one GetItem whatever the feed holds (O(1), never a scan);
 *  - a notification page is one Query and one GetItem;
 *  - ?enrich=reactions adds exactly two BatchGetItem calls to a page, and nothing without it;
 *  - NOTIFICATIONS_MAX_ITEMS = 4: past 4 + 1 groups the oldest go, counts following.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapacityMeter, meterCapacity } from '../../bench/capacity.js';
import type { FunctionId } from '../../lib/defs/index.js';
import { currentFunction } from '../../local/iam.js';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { own, settled, sqs, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

let meter: CapacityMeter;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { NOTIFICATIONS_MAX_ITEMS: '4' } });
  const handlerClients = await import('../../functions/platform/clients.js');
  // Each call is tagged with the function making it (function:command), so a request's cost is its
  // own function's calls: a worker busy meanwhile adds nothing, and no test has to wait for it.
  meter = meterCapacity(handlerClients.dynamo, (command) => `${currentFunction() ?? 'none'}:${command}`);
}, 120_000);

afterAll(stopOwnStack);

/** The calls and units `fn` made while `run` ran (what one request costs; other functions' calls left out). */
async function costOf(fn: FunctionId, run: () => Promise<unknown>) {
  const before = meter.snapshot();
  await run();
  const calls: Record<string, number> = {};
  let read = 0;
  let write = 0;
  for (const [tag, t] of Object.entries(meter.since(before).tags)) {
    const [caller, command] = tag.split(':') as [string, string];
    if (caller !== fn) continue;
    calls[command] = t.calls;
    read += t.read;
    write += t.write;
  }
  return { calls, read, write };
}

/**
 * Post `n` activities as `author` and have one liker like each: n groups for the author. All at
 * once, or one after another where the groups' order is what a test checks (`inOrder`).
 */
async function groupsFor(author: string, n: number, opts: { inOrder?: boolean } = {}): Promise<string[]> {
  const liker = uid('liker');
  const group = async (): Promise<string> => {
    const p = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post' } });
    expect((await api('PUT', `/activities/${encodeURIComponent(p.body.id)}/reactions/like`, { on: own, as: liker })).status).toBe(204);
    return p.body.id;
  };
  if (!opts.inOrder) return Promise.all(Array.from({ length: n }, group));
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await group());
  return ids;
}

/**
 * The tests' posts and likes, all made at once before the first test: each test has users of its
 * own (no seed meets another's), and what a test measures is a reading function's calls, which no
 * seed makes. The retention test's six go one after another: their order is what it checks.
 */
const seeded = { small: uid('small'), big: uid('big'), author: uid('author'), reader: uid('reader') };
let authorPosts: string[] = [];

beforeAll(async () => {
  [authorPosts] = await Promise.all([
    groupsFor(seeded.author, 6, { inOrder: true }),
    groupsFor(seeded.small, 1),
    groupsFor(seeded.big, 4),
    groupsFor(seeded.reader, 3),
  ]);
});

const groupCount = async (user: string) => (await api('GET', '/notifications?limit=100', { on: own, as: user })).body.items.length as number;

describe('notification reads are O(1) in what the feed holds', () => {
  it('counts: one GetItem of the same size for 1 group and for 4; a page: one Query + one GetItem', async () => {
    const { small, big } = seeded;
    await eventually(async () => (await groupCount(small)) === 1 && (await groupCount(big)) === 4, { what: 'groups of both users', timeoutMs: 60_000 });

    const one = await costOf('notifications', () => api('GET', '/notifications/counts', { on: own, as: small }));
    const four = await costOf('notifications', () => api('GET', '/notifications/counts', { on: own, as: big }));
    expect(one.calls).toEqual({ GetItemCommand: 1 });
    expect(four).toEqual(one);
    expect(one.read).toBe(0.5); // one eventually consistent read of a small item

    const page = await costOf('notifications', () => api('GET', '/notifications?limit=2', { on: own, as: big }));
    expect(page.calls).toEqual({ QueryCommand: 1, GetItemCommand: 1 });
  });
});

describe('notification retention by count', () => {
  it('keeps the 4 most recent groups once 4 + 1 are exceeded, and counts what is kept', async () => {
    const [author, ids] = [seeded.author, authorPosts];
    let page: { items: { object: string }[] } = { items: [] };
    await eventually(
      async () => {
        page = (await api('GET', '/notifications?limit=100', { on: own, as: author })).body;
        const objects = page.items.map((g) => g.object);
        // Wait for the last two groups too: before their jobs run, the first four are all there is.
        return page.items.length === 4 && objects.includes(ids[5]!) && objects.includes(ids[4]!);
      },
      { what: 'retention to cut back to 4 groups', timeoutMs: 60_000 },
    );
    expect(page.items.map((g: { object: string }) => g.object)).toEqual(ids.slice(2).reverse());
    expect((await api('GET', '/notifications/counts', { on: own, as: author })).body).toEqual({ unseen: 4, unread: 4 });
  });
});

describe('notification retention by age (NOTIFICATIONS_TTL, default 30d)', () => {
  it('neither pages nor counts groups of days older than the window', async () => {
    const user = uid('aged');
    const ticksAgo = (days: number) => (BigInt(Date.now() - days * 86_400_000) * 1_000_000n).toString();
    const events = [
      { verb: 'like', object: 'old:1', actor: uid('a'), id: 'old-1', ticks: ticksAgo(40) },
      { verb: 'like', object: 'new:1', actor: uid('a'), id: 'new-1', ticks: ticksAgo(0) },
    ];
    await sqs.send(new SendMessageCommand({ QueueUrl: stack.queueUrls.notify, MessageBody: JSON.stringify({ kind: 'notify', recipient: user, events }) }));
    await eventually(async () => (await api('GET', '/notifications', { on: own, as: user })).body.items.length === 1, {
      what: 'the fresh group',
      timeoutMs: 60_000,
    });
    await settled('the notify job'); // the old event had its chance
    const page = (await api('GET', '/notifications', { on: own, as: user })).body;
    expect(page.items.map((g: { object: string }) => g.object)).toEqual(['new:1']);
    expect([page.unseen, page.unread]).toEqual([1, 1]);
    expect((await api('GET', '/notifications/counts', { on: own, as: user })).body).toEqual({ unseen: 1, unread: 1 });
  });
});

describe('enriched pages', () => {
  it('?enrich=reactions costs exactly two BatchGetItem calls more than the plain page', async () => {
    const { reader } = seeded;
    await eventually(async () => (await api('GET', '/feed', { on: own, as: reader })).body.items.length === 3, {
      what: "the reader's feed",
      timeoutMs: 60_000,
    });
    const plain = await costOf('feedRead', () => api('GET', '/feed?limit=3', { on: own, as: reader }));
    const rich = await costOf('feedRead', () => api('GET', '/feed?limit=3&enrich=reactions', { on: own, as: reader }));
    expect(plain.calls).toEqual({ QueryCommand: 1 });
    expect(rich.calls).toEqual({ QueryCommand: 1, BatchGetItemCommand: 2 });
    const timeline = await costOf('feedRead', () => api('GET', `/users/${reader}/activities?enrich=reactions`, { on: own, as: reader }));
    expect(timeline.calls).toEqual({ QueryCommand: 1, BatchGetItemCommand: 2 });
  });
});
