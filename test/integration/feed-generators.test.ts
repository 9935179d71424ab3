/**
 * Feed generators on the shared local stack (docs/ranked-feeds.md#feed-generators), against a test
 * generator on loopback (support/feed-generator.ts) that answers well or misbehaves: who may
 * define one, what a page hydrates and leaves out, and that a generator that is slow, loops its
 * cursor, ignores `limit`, or sends junk gives bounded, well-formed answers.
 */
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, api, mustPost } from '../support/api.js';
import { type GeneratorAnswer, type GeneratorCall, startTestGenerator, type TestGenerator } from '../support/feed-generator.js';
import { uid } from '../support/ids.js';

interface Item {
  id: string;
  version: number;
  content: string | null;
  score?: number;
  reason?: Record<string, unknown>;
  reactions?: { counts: Record<string, number>; own: string[] };
}
interface Page {
  items: Item[];
  next: string | null;
  filtered: number;
}

let generator: TestGenerator;
beforeAll(async () => {
  generator = await startTestGenerator();
});
afterAll(() => generator.close());

const feedId = () => uid('gen').toLowerCase();

/** An admin's generator feed on a fresh route answering `answer`; its id, route name and secret. */
async function generatorFeed(answer: (call: GeneratorCall) => GeneratorAnswer, options: Record<string, unknown> = {}) {
  const id = feedId();
  const url = generator.route(id, answer);
  const res = await api('PUT', `/feeds/${id}`, { as: uid('admin'), scope: ADMIN, json: { generator: { url, ...options } } });
  expect(res.status, res.text).toBe(200);
  return { id, secret: res.body.generatorSecret as string };
}

const read = (as: string, id: string, query: Record<string, string | number> = {}) => api<Page>('GET', `/feeds/${id}/activities`, { as, query });
const skeleton = (ids: string[], cursor?: string): GeneratorAnswer => ({
  json: { items: ids.map((activityId) => ({ activityId })), ...(cursor && { cursor }) },
});

describe('defining a feed generator', () => {
  it('is for admins, with a URL tickfeed may call; its secret shows once', async () => {
    const id = feedId();
    const url = generator.route(id, () => skeleton([]));
    const byUser = await api('PUT', `/feeds/${id}`, { as: uid('alice'), json: { generator: { url } } });
    expect(byUser.status).toBe(403);
    expect(byUser.headers.get('content-type')).toContain('application/problem+json');
    const admin = uid('admin');
    for (const bad of [
      'http://10.0.0.1/feed',
      'https://169.254.169.254/latest',
      'https://localhost/x',
      'ftp://example.com/f',
      'https://u:p@example.com/f',
      'not a url',
    ]) {
      const res = await api('PUT', `/feeds/${id}`, { as: admin, scope: ADMIN, json: { generator: { url: bad } } });
      expect(res.status, bad).toBe(400);
      expect(res.body.errors, bad).toEqual([{ field: 'body.generator.url', message: expect.stringMatching(/^must be /) }]);
    }
    const mixed = await api('PUT', `/feeds/${id}`, { as: admin, scope: ADMIN, json: { generator: { url }, expression: '1' } });
    expect(mixed.status).toBe(400);
    expect((await api('GET', `/feeds/${id}`, { as: admin })).status).toBe(404); // nothing stored

    const put = await api('PUT', `/feeds/${id}`, { as: admin, scope: ADMIN, json: { generator: { url, personalized: true } } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ shared: true, definition: { generator: { url, timeoutMs: 5000, personalized: true, interactions: false } } });
    expect(put.body.generatorSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const got = await api('GET', `/feeds/${id}`, { as: uid('bob') });
    expect(got.status).toBe(200);
    expect(got.body.generatorSecret).toBeUndefined();
    expect(got.body.definition.generator).toEqual({ timeoutMs: 5000, personalized: true, interactions: false }); // the URL (and any key in it) is an admin's
    expect((await api('GET', `/feeds/${id}`, { as: admin, scope: ADMIN })).body.definition.generator.url).toBe(url);
  });
});

describe('reading a generator feed', () => {
  it("hydrates current versions and the reader's reactions, and drops what the reader may not see or what names nothing", async () => {
    const [reader, author, muted, blocker] = [uid('reader'), uid('author'), uid('muted'), uid('blocker')];
    const kept = await mustPost(author, { verb: 'post', content: 'v1' });
    const gone = await mustPost(author, { verb: 'post' });
    const m = await mustPost(muted, { verb: 'post' });
    const x = await mustPost(blocker, { verb: 'post' });
    expect((await api('PATCH', `/activities/${kept.id}`, { as: author, json: { content: 'v2' } })).status).toBe(200);
    expect((await api('PUT', `/activities/${kept.id}/reactions/like`, { as: reader })).status).toBe(204);
    expect((await api('DELETE', `/activities/${gone.id}`, { as: author })).status).toBe(204);
    expect((await api('PUT', `/mutes/${muted}`, { as: reader })).status).toBe(204);
    expect((await api('PUT', `/blocks/${reader}`, { as: blocker })).status).toBe(204);
    const unknown = kept.id.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    const { id } = await generatorFeed(() => ({
      json: {
        items: [
          { activityId: kept.id, reason: { repostBy: 'someone' } },
          { activityId: gone.id },
          { activityId: m.id },
          { activityId: x.id },
          { activityId: unknown },
          { activityId: 'not-an-id' },
          { nope: 1 },
          { activityId: kept.id },
        ],
      },
    }));
    const res = await read(reader, id, { enrich: 'reactions' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items).toEqual([
      expect.objectContaining({ id: kept.id, version: 2, content: 'v2', reason: { repostBy: 'someone' }, reactions: { counts: { like: 1 }, own: ['like'] } }),
    ]);
    expect(res.body.items[0]!.score).toBeUndefined();
    expect(res.body).toMatchObject({ filtered: 7, next: null });
    // Another reader, whom nobody muted or blocked, sees the muted and the blocker's posts: the filter is the reader's.
    expect((await read(uid('other'), id)).body.items.map((i) => i.id)).toEqual([kept.id, m.id, x.id]);
  });

  it('cuts a page to `limit` when the generator ignores it, and ends on an echoed cursor or an empty page', async () => {
    const author = uid('author');
    const posts = [];
    for (let i = 0; i < 8; i++) posts.push(await mustPost(author, { verb: 'post' }));
    const ids = posts.map((p) => p.id);
    const { id } = await generatorFeed((call) => (call.cursor === 'end' ? skeleton([]) : skeleton(ids, 'same')));
    const reader = uid('reader');
    const first = await read(reader, id, { limit: 3 });
    expect(first.body.items.map((i) => i.id)).toEqual(ids.slice(0, 3));
    expect(first.body.filtered).toBe(0);
    const second = await read(reader, id, { limit: 3, cursor: first.body.next! });
    expect(second.body.items).toHaveLength(3);
    expect(second.body.next).toBeNull(); // it sent back the cursor it was given
    expect(generator.calls(id).map((c) => [c.limit, c.cursor])).toEqual([
      [3, undefined],
      [3, 'same'],
    ]);

    const ending = await generatorFeed((call) => (call.cursor === undefined ? skeleton(ids.slice(0, 2), 'end') : skeleton([], 'more')));
    const p1 = await read(reader, ending.id, { limit: 2 });
    const p2 = await read(reader, ending.id, { limit: 2, cursor: p1.body.next! });
    expect(p2.status).toBe(200);
    expect(p2.body).toEqual({ items: [], filtered: 0, next: null });
    expect((await read(reader, ending.id, { cursor: 'forged' })).status).toBe(400);
    // A cursor is the reader's own, of the feed that handed it out: passed on by no other.
    expect((await read(uid('mallory'), ending.id, { limit: 2, cursor: p1.body.next! })).status).toBe(400);
    expect((await read(reader, id, { limit: 2, cursor: p1.body.next! })).status).toBe(400);
    expect(generator.calls(ending.id)).toHaveLength(2);
  });

  it('serves a page of junk entries and reasons too deep to keep as a page that filtered them', async () => {
    const post = await mustPost(uid('author'), { verb: 'post' });
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const { id } = await generatorFeed(() => ({ text: `{"items":[{"activityId":"${post.id}","reason":${deep}},${Array(60_000).fill('0').join(',')}]}` }));
    const res = await read(uid('reader'), id, { limit: 50 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((i) => [i.id, i.reason])).toEqual([[post.id, undefined]]);
    expect(res.body.filtered).toBe(49);
    expect((await read(uid('reader'), id, { limit: 50 })).body.filtered).toBe(49); // the same from the cache
  });

  it('answers a generator that hangs, fails or sends junk with a 502 problem, and opens the breaker after 3 in a row', async () => {
    const reader = uid('reader');
    const cases: [string, GeneratorAnswer, Record<string, unknown>?][] = [
      ['hangs', { hang: true }, { timeoutMs: 300 }],
      ['sends headers, then a body that never ends', { trickle: true }, { timeoutMs: 300 }],
      ['fails', { status: 500, json: { error: 'boom' } }],
      ['not json', { text: '<html>' }],
      ['no items', { json: { posts: [] } }],
      ['too large', { json: { items: [], pad: 'x'.repeat(300 * 1024) } }],
      ['too large, said up front', { json: { items: [], pad: 'x'.repeat(300 * 1024) }, contentLength: true }],
    ];
    for (const [what, answer, options] of cases) {
      const { id } = await generatorFeed(() => answer, options);
      const res = await read(reader, id);
      expect(res.status, what).toBe(502);
      expect(res.headers.get('content-type'), what).toContain('application/problem+json');
      expect(res.body, what).toMatchObject({ status: 502, code: 'bad_gateway' });
    }

    let healthy = false;
    const { id } = await generatorFeed(() => (healthy ? skeleton([]) : { status: 503 }));
    // At once, as readers arrive together: each failure counts.
    expect((await Promise.all([read(reader, id), read(uid('r2'), id), read(uid('r3'), id)])).map((r) => r.status)).toEqual([502, 502, 502]);
    const open = await read(reader, id);
    expect(open.status).toBe(503);
    expect(Number(open.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(generator.calls(id)).toHaveLength(3); // open: not called
    healthy = true;
    const again = await api('PUT', `/feeds/${id}`, { as: uid('admin'), scope: ADMIN, json: { generator: { url: generator.route(id, () => skeleton([])) } } });
    expect(again.status).toBe(200); // a PUT closes it
    expect((await read(reader, id)).status).toBe(200);
    expect(generator.calls(id)).toHaveLength(4);
  });

  it('caches a non-personalized answer; a personalized call carries a token naming the reader', async () => {
    const post = await mustPost(uid('author'), { verb: 'post' });
    const shared = await generatorFeed(() => skeleton([post.id]));
    const [ann, ben] = [uid('ann'), uid('ben')];
    expect((await read(ann, shared.id)).body.items).toHaveLength(1);
    expect((await read(ben, shared.id)).body.items).toHaveLength(1);
    expect(generator.calls(shared.id)).toHaveLength(1);
    expect(generator.calls(shared.id)[0]!.authorization).toBeUndefined();

    const personal = await generatorFeed((call) => skeleton(call.authorization === undefined ? [] : [post.id]), { personalized: true, interactions: true });
    await read(ann, personal.id);
    await read(ben, personal.id);
    const key = Buffer.from(personal.secret, 'base64url');
    const subjects = [];
    for (const call of generator.calls(personal.id)) {
      const { payload } = await jwtVerify(call.authorization!.replace(/^Bearer /, ''), key, { issuer: 'tickfeed', audience: `tickfeed:feed:${personal.id}` });
      expect(payload.exp! - payload.iat!).toBe(60);
      subjects.push(payload.sub);
    }
    expect(subjects).toEqual([ann, ben]);
    await expect(jwtVerify(generator.calls(personal.id)[0]!.authorization!.slice(7), Buffer.from(shared.secret, 'base64url'))).rejects.toThrow(); // another feed's key

    const sent = await api('POST', `/feeds/${personal.id}/interactions`, { as: ann, json: { items: [{ activityId: post.id, event: 'less' }] } });
    expect(sent.status).toBe(204);
    const forwarded = generator.calls(personal.id).at(-1)!;
    expect(forwarded).toMatchObject({ method: 'POST', body: { items: [{ activityId: post.id, event: 'less' }] } });
    expect((await jwtVerify(forwarded.authorization!.slice(7), key, { issuer: 'tickfeed', audience: `tickfeed:feed:${personal.id}` })).payload.sub).toBe(ann);
  });
});
