/**
 * Property: malformed requests across the feed routes never cause a 5xx, every answer is a 4xx
 * with an `application/problem+json` body, and nothing is written — the fuzzing caller's feed,
 * author index and foreignId markers stay empty, and a victim's activities stay byte-identical.
 * Every generated request is invalid by construction (no schema is used as the oracle).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../functions/core/feed/schemas.js';
import { activityIdOf, foreignIdKey, MAX_RANGE_KEY, MAX_USER_ID_BYTES } from '../../functions/core/keys.js';
import { resolveRoute } from '../../lib/defs/routes.js';
import { as, mustPost } from '../support/feed.js';
import { doc, stack, token, uid } from '../support/local.js';

interface Req {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
}

const ALLOWED_BODY_KEYS = new Set(['verb', 'object', 'content', 'attributes', 'foreignId', 'time']);
const VERB = /^[a-z0-9_.-]{1,64}$/;
const ATTRIBUTE_KEY = /^[A-Za-z0-9_]{1,64}$/;
const ok = { verb: 'like' };

// ---- bodies that are valid JSON objects but break one rule -------------------------------------
const badBodies = fc.oneof(
  fc
    .tuple(fc.string({ minLength: 1, maxLength: 20 }).filter((k) => !ALLOWED_BODY_KEYS.has(k)), fc.jsonValue({ maxDepth: 2 }))
    .map(([k, v]) => ({ ...ok, [k]: v })),
  fc.oneof(fc.string({ maxLength: 80 }).filter((s) => !VERB.test(s)), fc.jsonValue({ maxDepth: 1 }).filter((v) => typeof v !== 'string')).map((verb) => ({ verb })),
  fc.record({ object: fc.string({ minLength: 1, maxLength: 10 }), content: fc.string({ minLength: 1, maxLength: 10 }) }),
  fc
    .oneof(
      fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.integer(), { minKeys: LIMITS.attributes + 1, maxKeys: 30 }),
      fc.string({ maxLength: 70 }).filter((k) => !ATTRIBUTE_KEY.test(k)).map((k) => ({ [k]: 1 })),
      fc
        .oneof(
          fc.constant(null),
          fc.array(fc.integer(), { maxLength: 3 }),
          fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
          fc.string({ minLength: LIMITS.attributeString + 1, maxLength: 300 }),
          // Beyond what the SDK marshals from a JS number (±(2^53−1)) or a DynamoDB Number holds.
          fc.double({ min: 2 ** 53, max: 1e300, noNaN: true }),
          fc.double({ max: -(2 ** 53), min: -1e300, noNaN: true }),
          fc.double({ min: Number.MIN_VALUE, max: 1e-131, noNaN: true }),
        )
        .map((v) => ({ a: v })),
      fc.oneof(fc.string(), fc.integer(), fc.array(fc.integer()), fc.constant(null), fc.boolean()),
    )
    .map((attributes) => ({ ...ok, attributes })),
  fc
    .tuple(
      fc.constantFrom('object', 'content', 'foreignId'),
      fc.oneof(
        fc.constant(''),
        fc.integer(),
        fc.constant(null),
        fc.boolean(),
        fc.array(fc.string(), { maxLength: 2 }),
        fc.string({ minLength: LIMITS.content + 1, maxLength: LIMITS.content + 50 }),
      ),
    )
    .map(([k, v]) => ({ ...ok, [k]: v })),
  fc
    .oneof(
      fc.string({ maxLength: 40 }).filter((s) => !/^\d{4}-/.test(s)),
      fc.integer(),
      fc.date({ min: new Date(-8.64e15), max: new Date(-1), noInvalidDate: true }).map((d) => d.toISOString()),
      fc.constantFrom('2026-01-01T00:00:00', '2026-01-01', '2026-13-01T00:00:00Z', '2262-04-11T23:47:16.854775808Z', '+275760-09-13T00:00:00Z'),
    )
    .map((time) => ({ ...ok, time })),
  fc.oneof(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }), fc.string(), fc.integer(), fc.constant(null), fc.boolean()),
);

const notJson = fc.oneof(
  fc.string({ minLength: 1, maxLength: 60 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
  fc.integer({ min: 1, max: 20 }).map((n) => JSON.stringify({ verb: 'like', content: 'truncated body' }).slice(0, n)),
);

const posts: fc.Arbitrary<Req> = fc.oneof(
  badBodies.map((b) => ({ method: 'POST', path: '/activities', body: JSON.stringify(b), contentType: 'application/json' })),
  notJson.map((body) => ({ method: 'POST', path: '/activities', body, contentType: 'application/json' })),
  fc
    .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream', 'application/xml', 'multipart/form-data')
    .map((contentType) => ({ method: 'POST', path: '/activities', body: JSON.stringify(ok), contentType })),
  fc.constant({ method: 'POST', path: '/activities', body: '', contentType: 'application/json' }),
  fc.integer({ min: LIMITS.bodyBytes + 1, max: LIMITS.bodyBytes * 4 }).map((n) => ({
    method: 'POST',
    path: '/activities',
    body: JSON.stringify({ verb: 'like', content: 'x'.repeat(n) }),
    contentType: 'application/json',
  })),
);

// ---- query strings and path parameters ------------------------------------------------------------
const badCursor = fc.oneof(
  fc.string({ maxLength: 40 }).filter((s) => !/^\d{1,31}$/.test(s)),
  fc.bigInt({ min: MAX_RANGE_KEY + 1n, max: 10n ** 40n }).map(String),
);
const goodCursor = fc.bigInt({ min: 0n, max: MAX_RANGE_KEY }).map(String);
const badQuery = fc.oneof(
  fc.oneof(fc.integer({ min: -1000, max: 0 }).map(String), fc.integer({ min: 101, max: 10 ** 6 }).map(String), fc.string({ maxLength: 8 }).filter((s) => !/^\d+$/.test(s))).map((limit) => ({ limit })),
  fc.tuple(fc.constantFrom('before', 'since'), badCursor).map(([k, v]) => ({ [k]: v })),
  fc.tuple(goodCursor, goodCursor).map(([before, since]) => ({ before, since })),
  fc
    .oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty'), fc.string({ minLength: 1, maxLength: 12 }))
    .filter((k) => !['limit', 'before', 'since'].includes(k))
    .map((k) => [[k, '1']]),
);

const reads = (victim: string): fc.Arbitrary<Req> =>
  fc.tuple(fc.constantFrom('/feed', `/users/${encodeURIComponent(victim)}/activities`), badQuery).map(([path, q]) => ({
    method: 'GET',
    path: `${path}?${new URLSearchParams(Array.isArray(q) ? (q as [string, string][]) : (q as Record<string, string>))}`,
  }));

const badIds = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !s.includes('.')),
  fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 35n }), fc.string({ minLength: 1, maxLength: 12 })).map(([rk, s]) => `${rk}.${s}*`),
  fc.bigInt({ min: 0n, max: MAX_RANGE_KEY }).map((rk) => `0${rk}.YWxpY2U`),
);

const byId = (victimIds: readonly string[], victim: string): fc.Arbitrary<Req> =>
  fc.oneof(
    fc.tuple(fc.constantFrom('GET', 'DELETE'), badIds).map(([method, id]) => ({ method, path: `/activities/${encodeURIComponent(id)}` })),
    // Well-formed ids of activities that do not exist (404) ...
    fc.tuple(fc.constantFrom('GET', 'DELETE'), fc.bigInt({ min: 0n, max: MAX_RANGE_KEY }), fc.string({ minLength: 1, maxLength: 20 })).map(
      ([method, rk, actor]) => ({ method, path: `/activities/${activityIdOf(`${actor}-${victim}`, rk)}` }),
    ),
    // ... and the victim's real activities, which the fuzzing caller may not delete (403).
    fc.constantFrom(...victimIds).map((id) => ({ method: 'DELETE', path: `/activities/${id}` })),
    fc.constant({ method: 'GET', path: `/users/${'u'.repeat(MAX_USER_ID_BYTES + 1)}/activities` }),
  );

const wrongRoutes: fc.Arbitrary<Req> = fc.oneof(
  // Malformed percent-escapes in a path parameter: no route matches them (404), never a crash.
  fc.tuple(fc.constantFrom('GET', 'DELETE'), fc.constantFrom('/activities/%zz', '/activities/%E0%A4%A', '/users/%/activities')).map(([method, path]) => ({ method, path })),
  fc.tuple(fc.constantFrom('PUT', 'PATCH', 'POST', 'DELETE'), fc.constantFrom('/feed', '/users/x/activities', '/activities/1.eA', '/openapi.json')).map(([method, path]) => ({ method, path })),
  fc.tuple(fc.constantFrom('GET', 'PUT', 'PATCH', 'POST', 'DELETE'), fc.string({ minLength: 1, maxLength: 20 })).map(([method, s]) => ({
    method,
    path: `/${['activities', 'feed', 'users', 'x'][s.length % 4]}/${encodeURIComponent(s)}/${encodeURIComponent(s)}/z`,
  })),
).filter((r) => resolveRoute(r.method, new URL(r.path, 'http://x').pathname).route === undefined);

async function send(req: Req, bearer: string): Promise<{ status: number; type: string | null; body: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
  if (req.contentType) headers['content-type'] = req.contentType;
  const res = await fetch(`${stack.apiUrl}${req.path}`, { method: req.method, headers, body: req.body });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

async function partition(key: 'pk' | 'author', value: string, table = stack.tableNames.feed) {
  const { Items = [] } = await doc.send(
    new QueryCommand({
      TableName: table,
      ...(key === 'author' ? { IndexName: 'byAuthor' } : {}),
      KeyConditionExpression: '#k = :v',
      ExpressionAttributeNames: { '#k': key },
      ExpressionAttributeValues: { ':v': value },
    }),
  );
  return Items;
}

describe('malformed requests (property)', () => {
  it('never get a 5xx, always get problem+json 4xx, and write nothing', async () => {
    const fuzzer = uid('fuzzer');
    const bearer = await token(fuzzer);
    const victim = await as(uid('victim'));
    const victimPosts = [];
    for (let i = 0; i < 3; i++) victimPosts.push(await mustPost(victim, { verb: 'keep', foreignId: `v${i}`, attributes: { i } }));
    const victimBefore = await partition('pk', victim.user);

    const request = fc.oneof(
      { arbitrary: posts, weight: 5 },
      { arbitrary: reads(victim.user), weight: 3 },
      { arbitrary: byId(victimPosts.map((p) => p.id), victim.user), weight: 3 },
      { arbitrary: wrongRoutes, weight: 1 },
    );
    const statuses = new Map<number, number>();
    let sent = 0;
    const started = performance.now();
    await fc.assert(
      // Eight requests in flight per run: bounded concurrency, and shrinking still works per batch.
      fc.asyncProperty(fc.array(request, { minLength: 8, maxLength: 8 }), async (batch) => {
        const results = await Promise.all(batch.map((r) => send(r, bearer)));
        results.forEach((res, i) => {
          sent++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const what = `${batch[i]!.method} ${batch[i]!.path.slice(0, 120)} ${String(batch[i]!.body).slice(0, 120)} -> ${res.status} ${res.body.slice(0, 200)}`;
          expect(res.status, what).toBeGreaterThanOrEqual(400);
          expect(res.status, what).toBeLessThan(500);
          expect(res.type, what).toBe('application/problem+json');
          const problem = JSON.parse(res.body) as { status: number; type: string; title: string };
          expect(problem.status, what).toBe(res.status);
          expect(typeof problem.type === 'string' && typeof problem.title === 'string', what).toBe(true);
        });
      }),
      { numRuns: 250 },
    );
    const seconds = (performance.now() - started) / 1000;
    console.info(
      `fuzz: ${sent} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(sent).toBeGreaterThanOrEqual(2000);
    // Every kind of refusal was exercised.
    for (const status of [400, 403, 404, 405, 413, 415]) expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);

    // Nothing written: the fuzzer has no items, no index entries, no markers; the victim is intact.
    expect(await partition('pk', fuzzer)).toEqual([]);
    expect(await partition('author', fuzzer)).toEqual([]);
    expect(await partition('pk', foreignIdKey(fuzzer, 'x').pk, stack.tableNames.graph)).toEqual([]);
    expect(await partition('pk', victim.user)).toEqual(victimBefore);
    expect(victimBefore).toHaveLength(3);
  });
});
