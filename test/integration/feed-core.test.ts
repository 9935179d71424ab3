import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { routeKey, routes } from '../../lib/defs/routes.js';
import { parseActivityId } from '../../functions/model/activity-id.js';
import { ticksOfRangeKey } from '../../functions/model/range-key.js';
import { timelineKey, timelinePartition } from '../../functions/model/timeline-item.js';
import { nowTicks } from '../../functions/platform/clock.js';
import { feedRks } from '../support/feeds.js';
import { api, token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';

const post = (as: string, json: unknown) => api('POST', '/activities', { as, json });
const feed = (as: string, query = '') => api('GET', `/feed${query}`, { as });

describe('POST /activities + GET /feed', () => {
  it('posts an activity (201) and serves it newest first in the home feed and by author', async () => {
    const me = uid('poster');
    const first = await post(me, { verb: 'post', content: 'first', attributes: { score: 3, ok: true, tag: 'x' } });
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toBe(`/activities/${first.body.id}`);
    expect(first.body).toMatchObject({ actor: me, verb: 'post', content: 'first', object: null, foreignId: null });
    expect(first.body.attributes).toEqual({ score: 3, ok: true, tag: 'x' });
    const second = await post(me, { verb: 'post', content: 'second' });
    const third = await post(me, { verb: 'like', object: 'photo:1' });

    const page = await feed(me);
    expect(page.status).toBe(200);
    expect(page.body.items.map((i: { id: string }) => i.id)).toEqual([third.body.id, second.body.id, first.body.id]);
    expect(page.body.items[2]).toEqual(first.body);
    expect(page.body.lastRangeKey).toBeNull();

    const mine = await api('GET', `/users/${encodeURIComponent(me)}/activities?limit=2`, { as: uid('reader') });
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((i: { id: string }) => i.id)).toEqual([third.body.id, second.body.id]);
    expect(mine.body.lastRangeKey).toBe(second.body.rangeKey);

    const one = await api('GET', `/activities/${first.body.id}`, { as: uid('reader') });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...first.body, reactions: { counts: {}, own: [] } });
  });

  it('keeps both of two activities with identical time (ns): the server positions each', async () => {
    const me = uid('twins');
    const time = '2026-05-06T07:08:09.123456789Z';
    const [a, b] = await Promise.all([post(me, { verb: 'post', time, content: 'a' }), post(me, { verb: 'post', time, content: 'b' })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.time).toBe(time);
    expect(b.body.time).toBe(time);
    expect(a.body.rangeKey).not.toBe(b.body.rangeKey);
    const page = await feed(me);
    const expected = [a.body, b.body].sort((x, y) => (BigInt(x.rangeKey) < BigInt(y.rangeKey) ? -1 : 1));
    expect(page.body.items).toEqual(expected);
    expect((await feed(me)).body.items).toEqual(expected); // stable
  });

  it('keeps a backdated time exactly, but positions the post by the server clock (above older posts)', async () => {
    const me = uid('epoch');
    const earlier = await post(me, { verb: 'post', content: 'earlier, no time given' });
    const before = nowTicks();
    const res = await post(me, { verb: 'post', time: '1970-01-01T00:00:00.000000001Z' });
    expect(res.status).toBe(201);
    expect(res.body.time).toBe('1970-01-01T00:00:00.000000001Z');
    const rk = BigInt(res.body.rangeKey);
    // Positioned at the server's clock of the write, not at the epoch.
    expect(ticksOfRangeKey(rk)).toBeGreaterThanOrEqual(before);
    expect(ticksOfRangeKey(rk)).toBeLessThanOrEqual(nowTicks());
    expect(parseActivityId(res.body.id)).toEqual({ actor: me, rk });
    // Stored exactly (no float rounding anywhere): the item is found under the exact key.
    const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: timelineKey(me, rk) }));
    expect(String(Item?.rk)).toBe(res.body.rangeKey);
    expect(Item?.time).toBe('1970-01-01T00:00:00.000000001Z');
    // Newest first by position: the backdated post is above the one posted before it, in both feeds.
    expect((await feed(me)).body.items.map((i: { id: string }) => i.id)).toEqual([res.body.id, earlier.body.id]);
    const timeline = await api('GET', `/users/${me}/activities`, { as: me });
    expect(timeline.body.items.map((i: { id: string }) => i.id)).toEqual([res.body.id, earlier.body.id]);
  });

  it('returns with since exactly the items newer than the cursor, closest first, newest first', async () => {
    const me = uid('since');
    const old = await post(me, { verb: 'post', content: 'old' });
    const cursor = old.body.rangeKey;
    const newer = [];
    for (let i = 0; i < 5; i++) newer.push((await post(me, { verb: 'post', content: `n${i}` })).body);
    const all = await feed(me, `?since=${cursor}`);
    expect(all.body.items.map((i: { id: string }) => i.id)).toEqual(newer.map((n) => n.id).reverse());
    // limit=2: the two just newer than the cursor (n1, n0), newest first; catching up continues.
    const near = await feed(me, `?since=${cursor}&limit=2`);
    expect(near.body.items.map((i: { content: string }) => i.content)).toEqual(['n1', 'n0']);
    const next = await feed(me, `?since=${near.body.items[0].rangeKey}&limit=2`);
    expect(next.body.items.map((i: { content: string }) => i.content)).toEqual(['n3', 'n2']);
    const none = await feed(me, `?since=${newer[4].rangeKey}`);
    expect(none.body).toEqual({ items: [], lastRangeKey: null });
    expect((await feed(me, `?since=${cursor}&before=${cursor}`)).status).toBe(400);
  });

  it('is idempotent per foreignId: 200 with the original, one item written', async () => {
    const me = uid('idem');
    const body = { verb: 'order', foreignId: 'order-17', attributes: { total: 42 } };
    const first = await post(me, body);
    expect(first.status).toBe(201);
    const again = await Promise.all([post(me, body), post(me, { ...body, content: 'different' })]);
    for (const r of again) {
      expect(r.status).toBe(200);
      expect(r.body).toEqual(first.body);
    }
    const { Items } = await doc.send(
      new QueryCommand({ TableName: stack.tableNames.feed, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': timelinePartition(me) } }),
    );
    expect(Items).toHaveLength(1);
    // Another actor's foreignId space is separate.
    expect((await post(uid('other'), body)).status).toBe(201);
  });

  it('concurrent first posts of one foreignId create exactly one activity', async () => {
    const me = uid('race');
    const res = await Promise.all(Array.from({ length: 5 }, () => post(me, { verb: 'post', foreignId: 'same' })));
    expect(res.filter((r) => r.status === 201)).toHaveLength(1);
    expect(res.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(new Set(res.map((r) => r.body.id)).size).toBe(1);
  });

  it('deletes: 204, then 404; hidden everywhere; only the actor may delete (403)', async () => {
    const me = uid('deleter');
    const keep = await post(me, { verb: 'post', content: 'keep' });
    const gone = await post(me, { verb: 'post', content: 'gone', foreignId: 'f1' });
    const intruder = await api('DELETE', `/activities/${gone.body.id}`, { as: uid('intruder') });
    expect(intruder.status).toBe(403);
    expect(intruder.headers.get('content-type')).toBe('application/problem+json');

    expect((await api('DELETE', `/activities/${gone.body.id}`, { as: me })).status).toBe(204);
    const second = await api('DELETE', `/activities/${gone.body.id}`, { as: me });
    expect(second.status).toBe(404);
    expect(second.body.code).toBe('not_found');
    expect((await api('GET', `/activities/${gone.body.id}`, { as: me })).status).toBe(404);
    expect((await api('DELETE', `/activities/${gone.body.id}`, { as: uid('intruder') })).status).toBe(404);
    expect((await feed(me)).body.items.map((i: { id: string }) => i.id)).toEqual([keep.body.id]);
    const byAuthor = await api('GET', `/users/${me}/activities`, { as: me });
    expect(byAuthor.body.items.map((i: { id: string }) => i.id)).toEqual([keep.body.id]);
    // The original stays as a hidden tombstone (so late backfills and cleanups see the delete)
    // and expires by TTL; its copy in the author's home feed is retracted; the foreignId is free
    // again at once.
    const rk = BigInt(gone.body.rangeKey);
    const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: timelineKey(me, rk) }));
    expect(typeof Item?.deletedAt).toBe('string');
    expect(Number(String(Item?.expiresAt))).toBeGreaterThan(Date.now() / 1000);
    await eventually(async () => !(await feedRks(me)).includes(gone.body.rangeKey));
    expect((await post(me, { verb: 'post', foreignId: 'f1' })).status).toBe(201);
  });

  it('answers unknown or malformed ids 404 (problem+json), never 5xx', async () => {
    const me = uid('ids');
    for (const id of ['nope', '123', '123.', '.YQ', '1.%2F', '99999999999999999999999999999999.YQ', `1.${'A'.repeat(2000)}`]) {
      const res = await api('GET', `/activities/${id}`, { as: me });
      expect(res.status, id).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });
});

describe('auth', () => {
  const cases: [string, () => Promise<string | undefined>][] = [
    ['missing', async () => undefined],
    ['expired', () => token('x', { expiresIn: Math.floor(Date.now() / 1000) - 60 })],
    [
      'wrongly signed',
      async () => {
        const t = await token('x');
        return `${t.slice(0, -4)}${t.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      },
    ],
    ['wrong audience', () => token('x', { audience: 'someone-else' })],
  ];
  it.each(cases)('refuses a %s token with 401 on every feed route', async (_name, mint) => {
    const bearer = await mint();
    const opts = bearer ? { token: bearer } : {};
    for (const [method, path, json] of [
      ['POST', '/activities', { verb: 'post' }],
      ['GET', '/activities/1.YQ'],
      ['DELETE', '/activities/1.YQ'],
      ['GET', '/feed'],
      ['GET', '/users/x/activities'],
    ] as const) {
      const res = await api(method, path, { ...opts, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
  it('serves /openapi.json without a token', async () => {
    const res = await api('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.components.schemas.PostActivity.additionalProperties).toBe(false);
    // Every route is documented, with its method, and nothing else is.
    const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(routes.map(routeKey).sort());
    expect(Object.keys(res.body.paths).sort()).toEqual([
      '/activities',
      '/activities/{id}',
      '/activities/{id}/comments',
      '/activities/{id}/comments/{commentId}',
      '/activities/{id}/history',
      '/activities/{id}/reactions/{kind}',
      '/batch/activities',
      '/batch/follows',
      '/blocks',
      '/blocks/{userId}',
      '/feed',
      '/feed/aggregated',
      '/feeds',
      '/feeds/{feedId}',
      '/feeds/{feedId}/activities',
      '/feeds/{feedId}/interactions',
      '/following/tags/{tag}',
      '/following/{userId}',
      '/health',
      '/me',
      '/me/export',
      '/me/tags',
      '/mutes',
      '/mutes/{userId}',
      '/notifications',
      '/notifications/counts',
      '/notifications/read',
      '/notifications/seen',
      '/openapi.json',
      '/realtime',
      '/realtime/missed',
      '/rollups/{name}',
      '/tags/trending',
      '/tags/{tag}/activities',
      '/users/{userId}',
      '/users/{userId}/activities',
      '/users/{userId}/activity',
      '/users/{userId}/followers',
      '/users/{userId}/following',
    ]);
  });
});
