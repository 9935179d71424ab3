/**
 * Retention policies on the real local stack: by count (reads show exactly the N newest, storage
 * settles within N + margin, trims cost what they delete), by span (moving newest item), by age
 * (hidden at once on expiry, later removed by DynamoDB Local's TTL).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { doc as handlerDoc } from '../../functions/core/clients.js';
import { feedMetaKey, newDiscriminator, rangeKeyOf } from '../../functions/core/keys.js';
import { trimMarginFor, type RetentionPolicy } from '../../functions/core/retention/policy.js';
import { countAndTrim, SPAN_CHECK_EVERY, trimFeed } from '../../functions/core/retention/trim.js';
import { visibleBound } from '../../functions/core/retention/visible.js';
import { nowTicks } from '../../functions/core/ticks.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { generateLocalKeys } from '../../local/jwt.js';
import { startLocalStack } from '../../local/stack.js';
import { api, doc, eventually, stack, uid } from '../support/local.js';

const NS = 1_000_000_000n;
const N = Number(stack.env.FEED_MAX_ITEMS ?? 1000);

async function storedKeys(owner: string): Promise<bigint[]> {
  const keys: bigint[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new QueryCommand({
        TableName: stack.tableNames.feed,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': owner },
        ProjectionExpression: 'rk',
        ExclusiveStartKey,
      }),
    );
    keys.push(...(page.Items ?? []).map((i) => BigInt(String(i.rk))));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return keys;
}

async function readWholeFeed(user: string): Promise<string[]> {
  const seen: string[] = [];
  let before: string | null | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const res = await api('GET', `/feed?limit=100${before ? `&before=${before}` : ''}`, { as: user });
    expect(res.status).toBe(200);
    seen.push(...res.body.items.map((i: { rangeKey: string }) => i.rangeKey));
    before = res.body.lastRangeKey;
    if (!before) break;
  }
  return seen;
}

/** Seed `count` copy-shaped items straight into a feed, at the given ticks. */
async function seed(owner: string, ticksList: bigint[]): Promise<bigint[]> {
  const rks = ticksList.map((t) => rangeKeyOf(t, newDiscriminator()));
  for (let i = 0; i < rks.length; i += 25) {
    await doc.send(
      new BatchWriteCommand({
        RequestItems: {
          [stack.tableNames.feed]: rks.slice(i, i + 25).map((rk) => ({
            PutRequest: { Item: { pk: owner, rk, id: `seed-${rk}`, actor: 'seeder', verb: 'seed', time: 'x' } },
          })),
        },
      }),
    );
  }
  return rks;
}

describe('retention by count', () => {
  it(`after N + k posts, reads show exactly the N newest and storage settles within N + margin`, async () => {
    const user = uid('count');
    const k = trimMarginFor(N) + 37;
    const posted: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < N + k) {
          next++;
          const res = await api('POST', '/activities', { as: user, json: { verb: 'tick' } });
          expect(res.status).toBe(201);
          posted.push(res.body.rangeKey);
        }
      }),
    );
    const newestN = [...posted].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)).slice(0, N);
    const seen = await readWholeFeed(user);
    expect(seen).toEqual(newestN);

    const stored = await storedKeys(user);
    expect(stored.length).toBeGreaterThanOrEqual(N);
    expect(stored.length).toBeLessThanOrEqual(N + trimMarginFor(N));
  }, 180_000);

  it('a trim costs write units in proportion to what it deletes', async () => {
    const owner = uid('trimcost');
    const base = nowTicks();
    await seed(owner, Array.from({ length: 150 }, (_, i) => base - BigInt(i) * NS));
    await doc.send(new PutCommand({ TableName: stack.tableNames.graph, Item: { ...feedMetaKey(owner), count: 150 } }));

    let writeUnits = 0;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const meter = (next: any, context: { commandName?: string }) => async (args: any) => {
      args.input.ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      if (/Query|Get|Scan/.test(context.commandName ?? '')) return out; // reads: not write units
      for (const c of [out.output.ConsumedCapacity].flat()) writeUnits += c?.WriteCapacityUnits ?? c?.CapacityUnits ?? 0;
      return out;
    };
    handlerDoc.middlewareStack.add(meter, { step: 'initialize', name: 'retentionTestMeter' });
    try {
      const before = writeUnits;
      const deleted = await trimFeed(owner, 90, 5);
      const trimUnits = writeUnits - before;
      expect(deleted).toBe(60);
      // one unit per deleted (small) item, plus the lock and its release (the recount only reads)
      expect(trimUnits).toBeGreaterThanOrEqual(60);
      expect(trimUnits).toBeLessThanOrEqual(60 + 3);
    } finally {
      handlerDoc.middlewareStack.remove('retentionTestMeter');
    }
    const stored = await storedKeys(owner);
    expect(stored).toHaveLength(90);
    // the 60 oldest went: every survivor is newer than every deleted one
    const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: feedMetaKey(owner) }));
    expect(Number(Item?.count)).toBe(90);
  });

  it('a trim recounts: a counter that drifted (items removed behind its back) is corrected', async () => {
    const owner = uid('drift');
    const base = nowTicks();
    const rks = await seed(owner, Array.from({ length: 120 }, (_, i) => base - BigInt(i) * NS));
    // The counter believes 150 (30 items were, say, removed by TTL without telling it).
    await doc.send(new PutCommand({ TableName: stack.tableNames.graph, Item: { ...feedMetaKey(owner), count: 150 } }));
    const deleted = await trimFeed(owner, 100, 5);
    expect(deleted).toBe(20); // 120 real items down to 100, not 150 − 100 = 50
    const stored = await storedKeys(owner);
    expect(stored.sort()).toEqual([...rks].sort().slice(0, 100));
    const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: feedMetaKey(owner) }));
    expect(Number(Item?.count)).toBe(100);
  });
});

describe('retention by span', () => {
  const policy: RetentionPolicy = { trimMargin: 0, maxSpanMs: 60_000 };

  it('hides and then deletes items older than the newest item minus the span, as the newest moves', async () => {
    const owner = uid('span');
    const t0 = nowTicks() - 600n * NS;
    const [newest, recent, old] = await seed(owner, [t0, t0 - 30n * NS, t0 - 90n * NS]);
    const visible = (bound: bigint | undefined, rk: bigint) => bound === undefined || rk < bound;

    let bound = await visibleBound(owner, policy, nowTicks());
    expect([newest, recent, old].map((rk) => visible(bound, rk!))).toEqual([true, true, false]);

    // A newer item moves the window: the 30 s-old item is now 75 s behind the newest.
    const [newer] = await seed(owner, [t0 + 45n * NS]);
    bound = await visibleBound(owner, policy, nowTicks());
    expect([newer, newest, recent, old].map((rk) => visible(bound, rk!))).toEqual([true, true, false, false]);

    // Storage follows on the write path: the span check runs every SPAN_CHECK_EVERY writes.
    let trimmed = 0;
    for (let i = 0; i < SPAN_CHECK_EVERY; i++) trimmed += await countAndTrim(owner, 1, policy, newer);
    expect(trimmed).toBe(2);
    expect((await storedKeys(owner)).sort()).toEqual([newer, newest].sort());
  });
});

describe('retention by age', () => {
  it('hides an expired item from every read at once', async () => {
    const user = uid('age');
    const ttlMs = 30 * 86_400_000; // the stack's FEED_TTL default
    expect(stack.env.FEED_TTL ?? '30d').toBe('30d');
    // An activity whose time is just under 30 days ago expires a few seconds from now.
    const time = new Date(Date.now() - ttlMs + 4_000).toISOString();
    const posted = await api('POST', '/activities', { as: user, json: { verb: 'fleeting', time } });
    expect(posted.status).toBe(201);
    const keep = await api('POST', '/activities', { as: user, json: { verb: 'lasting' } });

    const ids = async () => (await api('GET', '/feed', { as: user })).body.items.map((i: { id: string }) => i.id);
    expect(await ids()).toEqual([keep.body.id, posted.body.id]);
    await eventually(async () => (await ids()).length === 1, 15_000, 250);
    expect(await ids()).toEqual([keep.body.id]);
    // GET by id compares the TTL attribute, which is rounded up to the second: ≤ 1 s later.
    await eventually(async () => (await api('GET', `/activities/${posted.body.id}`, { as: user })).status === 404, 3_000, 100);
  }, 60_000);

  it('expired feed items are later removed by DynamoDB Local TTL', async () => {
    // A stack of its own: DynamoDB Local's TTL sweeper is slow to reach an item in a big, busy
    // table, and this test is about the feed table's TTL setting, not about load.
    const own = await startLocalStack({ port: 0, keys: await generateLocalKeys(), pollers: false });
    try {
      const ownDoc = DynamoDBDocumentClient.from(
        new DynamoDBClient({ region: localRegion, credentials: localCredentials, endpoint: own.dynamoEndpoint }),
      );
      const item = { pk: 'ttl-user', rk: rangeKeyOf(nowTicks(), 1n), author: 'ttl-user', verb: 'fleeting', expiresAt: Math.ceil(Date.now() / 1000) + 2 };
      await ownDoc.send(new PutCommand({ TableName: own.tableNames.feed, Item: item }));
      await eventually(
        async () => {
          const { Item } = await ownDoc.send(new GetCommand({ TableName: own.tableNames.feed, Key: { pk: item.pk, rk: item.rk } }));
          return Item === undefined;
        },
        90_000,
        1000,
      );
    } finally {
      await own.stop();
      Object.assign(process.env, stack.env); // startLocalStack pointed this worker's env at `own`
    }
  }, 120_000);
});

describe('retention of fan-out and backfill copies', () => {
  /** A follower whose feed is already full: N + margin old items, counted. */
  async function fullFeed(owner: string): Promise<bigint[]> {
    const margin = trimMarginFor(N);
    const oldest = nowTicks() - 86_400n * NS;
    const rks = await seed(owner, Array.from({ length: N + margin }, (_, i) => oldest - BigInt(i) * NS));
    await doc.send(new PutCommand({ TableName: stack.tableNames.graph, Item: { ...feedMetaKey(owner), count: N + margin } }));
    return rks;
  }

  it('a fan-out copy that overfills a feed trims it back to the N newest, keeping the copy', async () => {
    const author = uid('author');
    const follower = uid('full');
    const seeded = await fullFeed(follower);
    expect((await api('PUT', `/following/${author}`, { as: follower })).status).toBeLessThan(300);
    const post = await api('POST', '/activities', { as: author, json: { verb: 'hello' } });
    expect(post.status).toBe(201);
    await eventually(async () => (await storedKeys(follower)).length === N, 30_000, 250);
    const stored = new Set((await storedKeys(follower)).map(String));
    expect(stored.has(post.body.rangeKey)).toBe(true);
    // the oldest seeded items went, the newest N − 1 stayed
    const sortedSeeded = [...seeded].sort((a, b) => (a < b ? -1 : 1)).map(String);
    expect(sortedSeeded.slice(0, N - 1).every((rk) => stored.has(rk))).toBe(true);
    expect(sortedSeeded.slice(N - 1).some((rk) => stored.has(rk))).toBe(false);
  }, 60_000);

  it('follow backfill copies are counted and trimmed the same way, and carry the age policy', async () => {
    const author = uid('backfilled');
    const posts: string[] = [];
    for (let i = 0; i < 3; i++) posts.push((await api('POST', '/activities', { as: author, json: { verb: 'old' } })).body.rangeKey);
    // One of the author's posts expires a few seconds from now: its backfilled copy must too.
    const fleeting = await api('POST', '/activities', {
      as: author,
      json: { verb: 'fleeting', time: new Date(Date.now() - 30 * 86_400_000 + 8_000).toISOString() },
    });

    // A full feed: the backfill overfills it and a trim brings it back to N, newest kept.
    const full = uid('fullfollower');
    await fullFeed(full);
    expect((await api('PUT', `/following/${author}`, { as: full })).status).toBeLessThan(300);
    await eventually(async () => {
      const stored = new Set((await storedKeys(full)).map(String));
      return posts.every((rk) => stored.has(rk)) && stored.size === N;
    }, 30_000, 250);

    // An empty feed: the backfilled copy of the fleeting post keeps the original's expiry.
    const fresh = uid('freshfollower');
    expect((await api('PUT', `/following/${author}`, { as: fresh })).status).toBeLessThan(300);
    const copy = await eventually(async () => {
      const { Item } = await doc.send(
        new GetCommand({ TableName: stack.tableNames.feed, Key: { pk: fresh, rk: BigInt(fleeting.body.rangeKey) } }),
      );
      return Item;
    }, 30_000, 250);
    const original = await doc.send(
      new GetCommand({ TableName: stack.tableNames.feed, Key: { pk: author, rk: BigInt(fleeting.body.rangeKey) } }),
    );
    expect(String(copy.expiresAt)).toBe(String(original.Item?.expiresAt));
    const page = async () => (await api('GET', '/feed?limit=10', { as: fresh })).body.items.map((i: { rangeKey: string }) => i.rangeKey);
    await eventually(async () => !(await page()).includes(fleeting.body.rangeKey), 20_000, 250);
    expect((await page()).sort()).toEqual([...posts].sort());
  }, 60_000);
});
