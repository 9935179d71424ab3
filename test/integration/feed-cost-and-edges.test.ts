/**
 * Edges the other feed tests leave out: attribute numbers at the limits of what can be stored,
 * keys at both ends of the key space, query parameter names that are special on JS objects, and
 * tokens signed by another key or issuer.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { MAX_RANGE_KEY, MAX_TICKS, parseActivityId } from '../../functions/core/keys.js';
import { generateLocalKeys, mintToken } from '../../local/jwt.js';
import { as, mustPost } from '../support/feed.js';
import { api, doc, stack, token, uid } from '../support/local.js';

const D = 10n ** 12n;

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

describe('query parameter names', () => {
  it.each(['__proto__', 'constructor', 'toString'])('refuse ?%s=1 as an unknown parameter (400), like any other', async (name) => {
    const me = await as(uid('qname'));
    const res = await me.get(`/feed?${name}=1`);
    expect(res.status).toBe(400);
    expect((res.body as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual([`query.${name}`]);
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
