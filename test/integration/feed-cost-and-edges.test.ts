/**
 * What a post costs (item bytes and write units, as DynamoDB Local reports them), keys at both
 * ends of the key space, and the authorizer cases feed-core.test.ts does not cover.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { originalItem } from '../../functions/core/feed/activity.js';
import { postActivityBody } from '../../functions/core/feed/schemas.js';
import { MAX_RANGE_KEY, MAX_TICKS, newDiscriminator, parseActivityId } from '../../functions/core/keys.js';
import { expiresAtFor } from '../../functions/core/retention/bounds.js';
import { policyFromEnv } from '../../functions/core/retention/policy.js';
import { nowTicks } from '../../functions/core/ticks.js';
import { generateLocalKeys, mintToken } from '../../local/jwt.js';
import { as, mustPost } from '../support/feed.js';
import { api, doc, stack, token, uid } from '../support/local.js';

const D = 10n ** 12n;

/** Item size by DynamoDB's billing rules: names + values; numbers ≈ digits/2 + 1; maps 3 + 1/element. */
function itemSizeBytes(item: object): number {
  const valueSize = (v: unknown): number => {
    if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
    if (typeof v === 'boolean' || v === null) return 1;
    if (typeof v === 'number' || typeof v === 'bigint') return Math.ceil(String(v).replace(/\D/g, '').replace(/^0+|0+$/g, '').length / 2) + 1;
    if (typeof v === 'object') return 3 + Object.entries(v as object).reduce((s, [k, x]) => s + Buffer.byteLength(k) + valueSize(x) + 1, 0);
    return 0;
  };
  return Object.entries(item).reduce((s, [k, v]) => (v === undefined ? s : s + Buffer.byteLength(k) + valueSize(v)), 0);
}

describe('cost of a post', () => {
  it('keeps a typical post at ≤ 1 KB: 1 WCU per feed copy, +1 for the original\'s byAuthor entry', async () => {
    const actor = `6f1c2b7e-4d3a-4c8e-9b1f-${uid().slice(-12)}`; // a Cognito-style sub
    const body = postActivityBody.parse({
      verb: 'game_finished',
      object: 'game:8f14e45f-ceea-467f-a0e6-3f2b1c1d2e3f',
      content: 'Finished a ranked match on hard difficulty — new personal best!',
      attributes: { score: 18_250, level: 'hard', won: true, duration_s: 742 },
    });
    const ticks = nowTicks();
    const item = originalItem(actor, body, ticks, newDiscriminator(), expiresAtFor(ticks, policyFromEnv()));
    const out = await doc.send(
      new PutCommand({ TableName: stack.tableNames.feed, Item: item, ReturnConsumedCapacity: 'INDEXES' }),
    );
    const bytes = itemSizeBytes({ ...item, rk: String(item.rk) });
    expect(bytes).toBeLessThanOrEqual(1024);
    expect(out.ConsumedCapacity?.Table?.CapacityUnits).toBe(1);
    expect(out.ConsumedCapacity?.GlobalSecondaryIndexes?.byAuthor?.CapacityUnits).toBe(1);
    // A fan-out copy is the same item without `author`: 1 WCU, no index entry.
    const { author: _author, ...copy } = item;
    const copyOut = await doc.send(
      new PutCommand({ TableName: stack.tableNames.feed, Item: { ...copy, pk: uid('follower') }, ReturnConsumedCapacity: 'INDEXES' }),
    );
    expect(copyOut.ConsumedCapacity?.CapacityUnits).toBe(1);
    expect(copyOut.ConsumedCapacity?.GlobalSecondaryIndexes).toBeUndefined();
    console.info(`typical post: ${bytes} bytes; original ${out.ConsumedCapacity?.CapacityUnits} WCU (table 1 + byAuthor 1); copy 1 WCU`);
  });

  it('stores the item the API wrote at that size too', async () => {
    const me = await as(uid('sized'));
    const a = await mustPost(me, { verb: 'post', object: 'photo:1', content: 'x'.repeat(280), attributes: { n: 1 } });
    const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: { pk: me.user, rk: BigInt(a.rangeKey) } }));
    expect(itemSizeBytes({ ...Item, rk: String(Item!.rk) })).toBeLessThanOrEqual(1024);
  });
});

describe('attribute numbers at the ends of what the schema accepts', () => {
  it('store and return them exactly (the SDK writes them in exponent form)', async () => {
    const me = await as(uid('numbers'));
    const attributes = { big: Number.MAX_SAFE_INTEGER, small: -Number.MAX_SAFE_INTEGER, tiny: 1.5e-128, neg: -5e-7, frac: 0.1, zero: 0 };
    const a = await mustPost(me, { verb: 'n', attributes });
    expect(a.attributes).toEqual(attributes);
    expect((await me.get(`/activities/${a.id}`)).body).toMatchObject({ attributes });
    // One past the SDK's limit is a 400 (it used to be a 500 from the marshaller).
    const tooBig = await me.post({ verb: 'n', attributes: { big: 2 ** 53 } });
    expect(tooBig.status).toBe(400);
  });
});

describe('keys at the ends of the key space', () => {
  it('round-trip the largest key (time = the epoch) and the smallest (the last representable ns)', async () => {
    const me = await as(uid('edges'));
    const epoch = await mustPost(me, { verb: 'edge', time: '1970-01-01T00:00:00Z' });
    const last = await mustPost(me, { verb: 'edge', time: '2262-04-11T23:47:16.854775807Z' });
    expect(BigInt(epoch.rangeKey) / D).toBe(MAX_TICKS);
    expect(BigInt(epoch.rangeKey) <= MAX_RANGE_KEY).toBe(true);
    expect(epoch.rangeKey).toHaveLength(31);
    expect(epoch.time).toBe('1970-01-01T00:00:00.000000000Z');
    expect(BigInt(last.rangeKey) < D).toBe(true);
    expect(last.time).toBe('2262-04-11T23:47:16.854775807Z');
    for (const a of [epoch, last]) {
      expect(parseActivityId(a.id)).toEqual({ actor: me.user, rk: BigInt(a.rangeKey) });
      const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: { pk: me.user, rk: BigInt(a.rangeKey) } }));
      expect(String(Item?.rk)).toBe(a.rangeKey); // exact: no float anywhere
    }
    // The far-future one is the newest item; the epoch one is past the TTL, so reads hide it.
    const page = (await me.page('/feed')).body;
    expect(page.items.map((x) => x.id)).toEqual([last.id]);
    expect((await me.get(`/activities/${last.id}`)).body).toEqual(last);
  });
});

describe('authorizer', () => {
  it('refuses a token signed by another key or from another issuer (401), before any write', async () => {
    const user = uid('authz');
    const foreign = await mintToken(await generateLocalKeys(), user);
    const otherIssuer = await token(user, { issuer: 'https://evil.example/' });
    for (const bearer of [foreign, otherIssuer]) {
      expect((await api('POST', '/activities', { token: bearer, json: { verb: 'x' } })).status).toBe(401);
      expect((await api('GET', '/feed', { token: bearer })).status).toBe(401);
    }
    expect((await api('GET', '/feed', { as: user })).body).toEqual({ items: [], lastRangeKey: null });
  });
});
