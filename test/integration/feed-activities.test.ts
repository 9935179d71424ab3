/**
 * Posting, reading one activity, deleting, foreignId idempotency, key edge cases and auth — over
 * HTTP against the local stack. Users are unique per test.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { itemSizeBytes } from '../../functions/core/activities/item.js';
import { MAX_TICKS, parseActivityId, ticksOfRangeKey } from '../../functions/core/keys.js';
import { ticksFromIso } from '../../functions/core/ticks.js';
import { generateLocalKeys, mintToken } from '../../local/jwt.js';
import { as, countingCore, mustPost } from '../support/feed.js';
import { api, doc, stack, token, uid } from '../support/local.js';

const D = 10n ** 12n;

describe('POST /activities', () => {
  it('writes the original to the author\'s feed and answers 201 with the activity', async () => {
    const alice = await as(uid('alice'));
    const res = await alice.post({ verb: 'like', object: 'photo:1', attributes: { n: 2, s: 'x', b: false } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/activities/${res.body.id}`);
    expect(res.body).toMatchObject({
      actor: alice.user,
      verb: 'like',
      object: 'photo:1',
      content: null,
      attributes: { n: 2, s: 'x', b: false },
      foreignId: null,
    });
    expect(parseActivityId(res.body.id)).toEqual({ actor: alice.user, rk: BigInt(res.body.rangeKey) });
    // Now (ns clock), give or take a few seconds.
    expect(Math.abs(Date.parse(res.body.time) - Date.now())).toBeLessThan(5_000);

    const { Items = [] } = await doc.send(
      new QueryCommand({ TableName: stack.tableNames.feed, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': alice.user } }),
    );
    expect(Items).toHaveLength(1);
    expect(Items[0]).toMatchObject({ author: alice.user, actor: alice.user, id: res.body.id, verb: 'like' });
    expect(String(Items[0]!.rk)).toBe(res.body.rangeKey);

    const got = await alice.get(`/activities/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('ignores no actor in the body: unknown fields (actor included) are refused', async () => {
    const mallory = await as(uid('mallory'));
    const res = await mallory.post({ verb: 'like', actor: 'alice' });
    expect(res.status).toBe(400);
    expect((res.body as unknown as { errors: unknown }).errors).toEqual([{ field: 'actor', message: 'Unknown field.' }]);
  });

  it('keeps two activities with identical ticks, in a stable order, each with its own key', async () => {
    const bob = await as(uid('bob'));
    const time = '2026-11-22T18:30:01.123456789Z';
    const [a, b] = await Promise.all([bob.post({ verb: 'same', time }), bob.post({ verb: 'same', time })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.rangeKey).not.toBe(b.body.rangeKey);
    const ticks = ticksFromIso(time)!;
    expect(ticksOfRangeKey(BigInt(a.body.rangeKey))).toBe(ticks);
    expect(ticksOfRangeKey(BigInt(b.body.rangeKey))).toBe(ticks);
    expect(a.body.time).toBe(time);

    const expected = [a.body, b.body].sort((x, y) => (BigInt(x.rangeKey) < BigInt(y.rangeKey) ? -1 : 1)).map((x) => x.id);
    for (const path of ['/feed', `/users/${bob.user}/activities`]) {
      for (let i = 0; i < 2; i++) {
        const page = await bob.page(path);
        expect(page.body.items.map((x) => x.id)).toEqual(expected);
      }
    }
  });

  it('round-trips keys near 2^63−1 (times at the epoch) and near 0 (the last representable time)', async () => {
    const carol = await as(uid('carol'));
    const times = ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00.000000001Z', '2262-04-11T23:47:16.854775807Z'];
    const posted = [];
    for (const time of times) posted.push(await mustPost(carol, { verb: 'edge', time }));
    const [epoch, oneNs, last] = posted as [typeof posted[0], typeof posted[0], typeof posted[0]];

    expect(BigInt(epoch.rangeKey) / D).toBe(MAX_TICKS);
    expect(BigInt(oneNs.rangeKey) / D).toBe(MAX_TICKS - 1n);
    expect(BigInt(last.rangeKey) / D).toBe(0n);
    expect(epoch.rangeKey).toHaveLength(31);
    expect(epoch.time).toBe('1970-01-01T00:00:00.000000000Z');
    expect(oneNs.time).toBe('1970-01-01T00:00:00.000000001Z');
    expect(last.time).toBe('2262-04-11T23:47:16.854775807Z');

    for (const a of posted) expect((await carol.get(`/activities/${a.id}`)).body).toEqual(a);
    const page = await carol.page('/feed');
    expect(page.body.items.map((x) => x.rangeKey)).toEqual([last.rangeKey, oneNs.rangeKey, epoch.rangeKey]);
    // Stored as an exact 31-digit Number: the cursor just below the oldest returns nothing.
    const older = await carol.page('/feed', { before: oneNs.rangeKey });
    expect(older.body.items.map((x) => x.id)).toEqual([epoch.id]);
  });

  it('keeps a typical post in one write unit (measured) and reports its size', async () => {
    const { store } = countingCore();
    const actor = '6f1c2b7e-4d3a-4c8e-9b1f-2a3c4d5e6f70'; // a Cognito-style sub
    const body = {
      verb: 'game_finished',
      object: 'game:8f14e45f-ceea-467f-a0e6-3f2b1c1d2e3f',
      content: 'Finished a ranked match on hard difficulty — new personal best!',
      attributes: { score: 18_250, level: 'hard', won: true, duration_s: 742 },
    };
    const plain = await store.post(`${actor}-${uid()}`, body);
    // The item: 1 WCU (all a fan-out copy costs); the original also writes its byAuthor entry.
    expect(plain.writeUnits).toEqual({ table: 1, total: 2 });
    const withForeignId = await store.post(`${actor}-${uid()}`, { ...body, foreignId: 'match-8f14e45f' });
    const { Items = [] } = await doc.send(
      new QueryCommand({
        TableName: stack.tableNames.feed,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': withForeignId.activity.actor },
      }),
    );
    const bytes = itemSizeBytes(Object.fromEntries(Object.entries(Items[0]!).map(([k, v]) => [k, k === 'rk' ? String(v) : v])));
    expect(bytes).toBeLessThanOrEqual(1024);
    console.info(
      `typical post: item ${bytes} bytes; PutItem ${JSON.stringify(plain.writeUnits)} WCU; ` +
        `with foreignId (transaction: original + marker) ${JSON.stringify(withForeignId.writeUnits)} WCU`,
    );
  });
});

describe('foreignId', () => {
  it('makes a repeated post return the original with 200 and write nothing new', async () => {
    const dave = await as(uid('dave'));
    const body = { verb: 'purchase', foreignId: 'order-1', attributes: { amount: 30 } };
    const first = await dave.post(body);
    expect(first.status).toBe(201);
    const again = await Promise.all([dave.post(body), dave.post({ ...body, attributes: { amount: 99 } })]);
    for (const res of again) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual(first.body);
    }
    const page = await dave.page('/feed');
    expect(page.body.items.map((x) => x.id)).toEqual([first.body.id]);
    // Another actor's identical foreignId is a different key.
    const erin = await as(uid('erin'));
    expect((await erin.post(body)).status).toBe(201);
  });

  it('lets only one of many concurrent first posts win', async () => {
    const fay = await as(uid('fay'));
    const results = await Promise.all(Array.from({ length: 8 }, () => fay.post({ verb: 'race', foreignId: 'once' })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await fay.page('/feed')).body.items).toHaveLength(1);
  });
});

describe('DELETE /activities/{id}', () => {
  it('removes the original (204), then answers 404', async () => {
    const gus = await as(uid('gus'));
    const keep = await mustPost(gus, { verb: 'keep' });
    const gone = await mustPost(gus, { verb: 'gone' });
    const res = await gus.del(gone.id);
    expect(res.status).toBe(204);
    expect((await gus.get(`/activities/${gone.id}`)).status).toBe(404);
    expect((await gus.del(gone.id)).status).toBe(404);
    expect((await gus.page('/feed')).body.items.map((x) => x.id)).toEqual([keep.id]);
  });

  it('frees the foreignId with the original', async () => {
    const hal = await as(uid('hal'));
    const first = await mustPost(hal, { verb: 'x', foreignId: 'f' });
    expect((await hal.del(first.id)).status).toBe(204);
    const second = await hal.post({ verb: 'x', foreignId: 'f' });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.id);
  });

  it("refuses to delete someone else's activity (403) and leaves it", async () => {
    const ida = await as(uid('ida'));
    const jon = await as(uid('jon'));
    const post = await mustPost(ida, { verb: 'mine' });
    const res = await jon.del(post.id);
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await ida.get(`/activities/${post.id}`)).status).toBe(200);
  });

  it('answers 400 for a malformed id and 404 for a well-formed unknown one', async () => {
    const kim = await as(uid('kim'));
    expect((await kim.del('not-an-id')).status).toBe(400);
    expect((await kim.get('/activities/123.')).status).toBe(400);
    const post = await mustPost(kim, { verb: 'x' });
    const unknown = `${BigInt(post.rangeKey) + 1n}.${post.id.split('.')[1]}`;
    expect((await kim.get(`/activities/${unknown}`)).status).toBe(404);
    expect((await kim.del(unknown)).status).toBe(404);
  });
});

describe('auth', () => {
  const routes: [string, string, unknown?][] = [
    ['POST', '/activities', { verb: 'x' }],
    ['GET', '/feed'],
    ['GET', '/users/someone/activities'],
    ['GET', '/activities/123.YWxpY2U'],
    ['DELETE', '/activities/123.YWxpY2U'],
  ];

  it('refuses missing, expired, wrongly signed, wrong-audience and wrong-issuer tokens with 401', async () => {
    const user = uid('auth');
    const otherKeys = await generateLocalKeys();
    const bad: Record<string, string | undefined> = {
      missing: undefined,
      expired: await token(user, { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
      wrongSignature: await mintToken(otherKeys, user),
      wrongAudience: await token(user, { audience: 'someone-else' }),
      wrongIssuer: await token(user, { issuer: 'https://evil.example/' }),
      notJwt: 'abc.def.ghi',
    };
    for (const [method, path, body] of routes) {
      for (const [name, bearer] of Object.entries(bad)) {
        const res = await api(method, path, { ...(bearer ? { token: bearer } : {}), ...(body ? { json: body } : {}) });
        expect(res.status, `${method} ${path} with ${name} token`).toBe(401);
      }
    }
    // Nothing was written for the user whose (bad) tokens were used.
    const { Count } = await doc.send(
      new QueryCommand({ TableName: stack.tableNames.feed, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': user }, Select: 'COUNT' }),
    );
    expect(Count).toBe(0);
  });

  it('serves /health and /openapi.json without a token', async () => {
    expect((await api('GET', '/health')).status).toBe(200);
    const doc = await api('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/activities', '/activities/{id}', '/feed', '/users/{userId}/activities']));
    // Generated from the validating schema: its limits show up in the document.
    expect(doc.body.components.schemas.PostActivity.properties.verb.pattern).toBe('^[a-z0-9_.-]{1,64}$');
    expect(doc.body.components.schemas.PostActivity.additionalProperties).toBe(false);
  });
});

