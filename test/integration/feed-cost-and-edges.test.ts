/**
 * Edges the other feed tests leave out: attribute numbers at the limits of what can be stored,
 * keys at both ends of the key space, query parameter names that are special on JS objects, and
 * tokens signed by another key or issuer.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Activity } from '../../functions/model/activity.js';
import { parseActivityId } from '../../functions/model/activity-id.js';
import { MAX_RANGE_KEY, ticksOfRangeKey } from '../../functions/model/range-key.js';
import { timelineKey } from '../../functions/model/timeline-item.js';
import { timelineRks } from '../support/feeds.js';
import { generateLocalKeys, mintToken } from '../../local/jwt.js';
import { api, mustPost, token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';

describe('attribute numbers at the ends of what the schema accepts', () => {
  it('store and return them exactly (the SDK writes them in exponent form)', async () => {
    const me = uid('numbers');
    const attributes = { big: Number.MAX_SAFE_INTEGER, small: -Number.MAX_SAFE_INTEGER, tiny: 1.5e-128, neg: -5e-7, frac: 0.1, zero: 0 };
    const a = await mustPost(me, { verb: 'n', attributes });
    expect(a.attributes).toEqual(attributes);
    expect((await api('GET', `/activities/${a.id}`, { as: me })).body).toMatchObject({ attributes });
    // One past the SDK's limit is a 400 (it used to be a 500 from the marshaller).
    const tooBig = await api<Activity>('POST', '/activities', { as: me, json: { verb: 'n', attributes: { big: 2 ** 53 } } });
    expect(tooBig.status).toBe(400);
  });
});

describe('activity time at the ends of what is accepted', () => {
  it('keeps the epoch exactly as the activity time, positioned by the server clock; refuses times > 5 min ahead', async () => {
    const me = uid('edges');
    const epoch = await mustPost(me, { verb: 'edge', time: '1970-01-01T00:00:00Z' });
    expect(epoch.time).toBe('1970-01-01T00:00:00.000000000Z');
    expect(epoch.rangeKey).toHaveLength(31);
    expect(BigInt(epoch.rangeKey) <= MAX_RANGE_KEY).toBe(true);
    expect(ticksOfRangeKey(BigInt(epoch.rangeKey))).toBeGreaterThan(BigInt(Date.now() - 60_000) * 1_000_000n);
    expect(parseActivityId(epoch.id)).toEqual({ actor: me, rk: BigInt(epoch.rangeKey) });
    const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: timelineKey(me, BigInt(epoch.rangeKey)) }));
    expect(String(Item?.rk)).toBe(epoch.rangeKey); // exact: no float anywhere
    // A backdated time neither hides the post nor expires it: it is in the feed, at the top.
    expect((await api<{ items: Activity[] }>('GET', '/feed', { as: me })).body.items.map((x) => x.id)).toEqual([epoch.id]);

    // Up to 5 minutes ahead of the server is clock skew: accepted. Beyond it, 400 and nothing written.
    const soon = await api<Activity>('POST', '/activities', { as: me, json: { verb: 'edge', time: new Date(Date.now() + 4 * 60_000).toISOString() } });
    expect(soon.status).toBe(201);
    for (const time of [new Date(Date.now() + 6 * 60_000).toISOString(), '2262-01-01T00:00:00Z', '2262-04-11T23:47:16.854775807Z']) {
      const res = await api<Activity>('POST', '/activities', { as: me, json: { verb: 'edge', time, foreignId: `f-${time}` } });
      expect(res.status, time).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect((res.body as unknown as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual(['body.time']);
    }
    const stored = await timelineRks(me);
    expect(stored).toEqual([soon.body.rangeKey, epoch.rangeKey]);
  });
});

describe('query parameter names', () => {
  it.each(['__proto__', 'constructor', 'toString'])('refuse ?%s=1 as an unknown parameter (400), like any other', async (name) => {
    const me = uid('qname');
    const res = await api('GET', `/feed?${name}=1`, { as: me });
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
