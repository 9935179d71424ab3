/**
 * Ranked feeds on the shared local stack (docs/ranked-feeds.md): definitions and who owns them, an
 * expression error, stable paging while scores move, the heuristics, what never shows, and what a
 * hostile reader can reach.
 */
import { describe, expect, it } from 'vitest';
import { createTickfeedClient } from '../../client/src/index.js';
import { ADMIN, api, mustPost, token } from '../support/api.js';
import { stack } from '../support/local.js';
import { uid } from '../support/ids.js';
import { eventually } from '../support/wait.js';

interface RankedItem {
  id: string;
  actor: string;
  score: number;
  variables?: Record<string, number>;
}
interface RankedPage {
  items: RankedItem[];
  next: string | null;
  filtered: number;
}

const feedId = () => uid('feed').toLowerCase();
const define = (as: string, id: string, definition: unknown, scope?: string) => api('PUT', `/feeds/${id}`, { as, json: definition, ...(scope && { scope }) });
const page = async (as: string, id: string, query: Record<string, string | number> = {}) => {
  const res = await api<RankedPage>('GET', `/feeds/${id}/activities`, { as, query });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const ids = (p: RankedPage) => p.items.map((i) => i.id);
const byAuthors = (authors: string[], expression: string, heuristics: Record<string, unknown> = {}) => ({
  sources: [{ type: 'authors', authors, windowHours: 24, limit: 100 }],
  expression,
  heuristics,
});

describe('ranked feed definitions', () => {
  it('refuses an expression error with its column and stores nothing', async () => {
    const alice = uid('alice');
    const id = feedId();
    const res = await define(alice, id, byAuthors([uid('bob')], 'reactions + * 2'));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.errors).toEqual([{ field: 'body.expression', message: expect.stringMatching(/^column 13: expected a number/) }]);
    const unknown = await define(alice, id, byAuthors([uid('bob')], 'ln(1 + reactions) - bogus'));
    expect(unknown.body.errors[0].message).toMatch(/^column 21: unknown variable "bogus"/);
    expect((await api('GET', `/feeds/${id}`, { as: alice })).status).toBe(404);
    expect((await api('GET', '/feeds', { as: alice })).body).toEqual({ items: [], next: null });
  });

  it("records its owner: others cannot read, replace or delete a private feed; an admin's is shared", async () => {
    const [alice, bob, admin] = [uid('alice'), uid('bob'), uid('admin')];
    const id = feedId();
    const def = byAuthors([alice], 'reactions - age');
    const put = await define(alice, id, def);
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ feedId: id, owner: alice, shared: false, definition: { expression: 'reactions - age', attributeDefaults: {} } });
    expect((await api('GET', `/feeds/${id}`, { as: alice })).status).toBe(200);
    expect((await api('GET', `/feeds/${id}`, { as: bob })).status).toBe(404);
    expect((await api('GET', `/feeds/${id}/activities`, { as: bob })).status).toBe(404);
    expect((await define(bob, id, byAuthors([bob], '1'))).status).toBe(403);
    expect((await api('DELETE', `/feeds/${id}`, { as: bob })).status).toBe(404);
    expect((await api('GET', `/feeds/${id}`, { as: alice })).body.definition.expression).toBe('reactions - age'); // unchanged
    expect((await api('GET', '/feeds', { as: alice })).body).toEqual({ items: [{ feedId: id }], next: null });
    expect((await api('GET', '/feeds', { as: bob })).body).toEqual({ items: [], next: null });

    const shared = feedId();
    expect((await define(admin, shared, def, ADMIN)).body).toMatchObject({ shared: true });
    expect((await api('GET', `/feeds/${shared}`, { as: bob })).status).toBe(200);
    expect((await define(bob, shared, def)).status).toBe(403);
    expect((await api('DELETE', `/feeds/${shared}`, { as: bob })).status).toBe(403);
    expect((await api('DELETE', `/feeds/${id}`, { as: alice })).status).toBe(204);
    expect((await api('GET', `/feeds/${id}`, { as: alice })).status).toBe(404);
  });
});

describe('reading a ranked feed', () => {
  it('pages 10 times with no duplicate and no skip while reactions and new posts move scores', async () => {
    const [reader, author, fan] = [uid('reader'), uid('author'), uid('fan')];
    const posts: { id: string }[] = [];
    for (let i = 0; i < 30; i++) posts.push(await mustPost(author, { verb: 'post', content: `p${i}` }));
    const id = feedId();
    expect((await define(reader, id, byAuthors([author], 'reactions * 10 - age'))).status).toBe(200);
    // Likes before the first page set the ranking: p29 … p25 liked, so they lead.
    for (const p of posts.slice(25)) expect((await api('PUT', `/activities/${p.id}/reactions/like`, { as: fan })).status).toBe(204);
    let p = await page(reader, id, { limit: 3 });
    expect(
      ids(p)
        .slice(0, 3)
        .every((x) => posts.slice(25).some((q) => q.id === x)),
    ).toBe(true);
    const seen = [...ids(p)];
    const scores = p.items.map((i) => i.score);
    for (let n = 1; n < 10; n++) {
      // Meanwhile: likes on the posts the ranking placed last, and a new post — neither moves this ranking.
      await api('PUT', `/activities/${posts[n]!.id}/reactions/like`, { as: fan });
      await mustPost(author, { verb: 'post', content: `new${n}` });
      p = await page(reader, id, { limit: 3, cursor: p.next! });
      expect(p.filtered).toBe(0);
      seen.push(...ids(p));
      scores.push(...p.items.map((i) => i.score));
    }
    expect(p.next).toBeNull();
    expect(new Set(seen).size).toBe(30);
    expect(new Set(seen)).toEqual(new Set(posts.map((q) => q.id)));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // A first page again ranks anew: the new posts are there now.
    expect((await page(reader, id, { limit: 100 })).items.length).toBe(39);
  });

  it('applies author diversity, dropSeen and less as documented, and explains scores', async () => {
    const [reader, bob, carol] = [uid('reader'), uid('bob'), uid('carol')];
    const c1 = await mustPost(carol, { verb: 'post' });
    const b = [await mustPost(bob, { verb: 'post' }), await mustPost(bob, { verb: 'post' }), await mustPost(bob, { verb: 'post' })];
    const plain = feedId();
    const diverse = feedId();
    const dropSeen = feedId();
    expect((await define(reader, plain, byAuthors([bob, carol], '10 - age'))).status).toBe(200);
    expect((await define(reader, diverse, byAuthors([bob, carol], '10 - age', { authorDiversity: 0.5 }))).status).toBe(200);
    expect((await define(reader, dropSeen, byAuthors([bob, carol], '10 - age', { dropSeen: true }))).status).toBe(200);
    // Scores tie but for age: newest first.
    expect(ids(await page(reader, plain))).toEqual([b[2]!.id, b[1]!.id, b[0]!.id, c1.id]);
    // bob's second post scores half, his third a quarter: carol's comes second.
    const d = await page(reader, diverse, { explain: 'true' });
    expect(ids(d)).toEqual([b[2]!.id, c1.id, b[1]!.id, b[0]!.id]);
    expect(d.items[0]!.variables).toEqual({ age: expect.any(Number) });
    expect(d.items[2]!.score).toBeCloseTo(d.items[0]!.score / 2, 3);

    const sent = await api('POST', `/feeds/${dropSeen}/interactions`, { as: reader, json: { items: [{ activityId: b[2]!.id, event: 'seen' }] } });
    expect(sent.status, sent.text).toBe(204);
    expect(ids(await page(reader, dropSeen))).toEqual([b[1]!.id, b[0]!.id, c1.id]);
    expect(ids(await page(reader, plain))).toEqual([b[2]!.id, b[1]!.id, b[0]!.id, c1.id]); // seen only drops where asked

    // less on bob: his scores halve, in every feed of the reader; more twice brings him above again.
    await api('POST', `/feeds/${plain}/interactions`, { as: reader, json: { items: [{ activityId: b[0]!.id, event: 'less' }] } });
    const less = await page(reader, plain);
    expect(ids(less)).toEqual([c1.id, b[2]!.id, b[1]!.id, b[0]!.id]);
    await api('POST', `/feeds/${plain}/interactions`, {
      as: reader,
      json: {
        items: [
          { activityId: b[0]!.id, event: 'more' },
          { activityId: b[0]!.id, event: 'more' },
        ],
      },
    });
    expect(ids(await page(reader, plain))[3]).toBe(c1.id);
    // An id that is not an activity's: 400, nothing recorded.
    expect((await api('POST', `/feeds/${plain}/interactions`, { as: reader, json: { items: [{ activityId: 'nope', event: 'less' }] } })).status).toBe(400);
  });

  it('never shows blocked, muted or deleted posts, and a later page says how many it left out', async () => {
    const [reader, muted, blocker, author] = [uid('reader'), uid('muted'), uid('blocker'), uid('author')];
    const m1 = await mustPost(muted, { verb: 'post' });
    const x1 = await mustPost(blocker, { verb: 'post' });
    const gone = await mustPost(author, { verb: 'post' });
    const kept = await mustPost(author, { verb: 'post' });
    expect((await api('PUT', `/mutes/${muted}`, { as: reader })).status).toBe(204);
    expect((await api('PUT', `/blocks/${reader}`, { as: blocker })).status).toBe(204);
    expect((await api('DELETE', `/activities/${gone.id}`, { as: author })).status).toBe(204);
    const id = feedId();
    expect((await define(reader, id, byAuthors([muted, blocker, author], '1'))).status).toBe(200);
    expect(ids(await page(reader, id))).toEqual([kept.id]);
    for (const hidden of [m1.id, x1.id, gone.id]) expect(ids(await page(reader, id))).not.toContain(hidden);

    // After the ranking was taken: a mute and a delete empty the later page, which is not refilled.
    const later = [await mustPost(author, { verb: 'post' }), await mustPost(uid('other'), { verb: 'post' })];
    const other = later[1]!.actor;
    const id2 = feedId();
    expect((await define(reader, id2, byAuthors([author, other], 'age'))).status).toBe(200); // oldest first
    const first = await page(reader, id2, { limit: 1 });
    expect(ids(first)).toEqual([kept.id]);
    expect((await api('DELETE', `/activities/${later[0]!.id}`, { as: author })).status).toBe(204);
    expect((await api('PUT', `/mutes/${other}`, { as: reader })).status).toBe(204);
    const second = await page(reader, id2, { limit: 2, cursor: first.next! });
    expect(second).toEqual({ items: [], next: null, filtered: 2 });
  });

  it("hydrates nothing a hostile reader may not see: others' private feeds, cursors and blockers' posts", async () => {
    const [alice, mallory, author] = [uid('alice'), uid('mallory'), uid('author')];
    const secret = await mustPost(alice, { verb: 'post', content: 'for friends' });
    await mustPost(author, { verb: 'post' });
    await mustPost(author, { verb: 'post' });
    expect((await api('PUT', `/blocks/${mallory}`, { as: alice })).status).toBe(204);
    const alicesFeed = feedId();
    expect((await define(alice, alicesFeed, byAuthors([alice, author], '1'))).status).toBe(200);
    const alicesPage = await page(alice, alicesFeed, { limit: 1 });
    expect(alicesPage.next).not.toBeNull();

    // mallory names alice (who blocked her) as a source: nothing of alice's comes back.
    const own = feedId();
    expect((await define(mallory, own, byAuthors([alice, author], '1'))).status).toBe(200);
    const hers = await page(mallory, own, { limit: 100 });
    expect(hers.items.length).toBe(2);
    expect(hers.items.every((i) => i.actor === author)).toBe(true);
    expect(ids(hers)).not.toContain(secret.id);
    // alice's feed: 404; alice's cursor, on alice's feed or her own: 400 (a later page reads the snapshot, which names its reader).
    expect((await api('GET', `/feeds/${alicesFeed}/activities`, { as: mallory })).status).toBe(404);
    expect((await api('GET', `/feeds/${alicesFeed}/activities`, { as: mallory, query: { cursor: alicesPage.next! } })).status).toBe(400);
    const stolen = await api('GET', `/feeds/${own}/activities`, { as: mallory, query: { cursor: alicesPage.next! } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errors).toEqual([{ field: 'query.cursor', message: expect.any(String) }]);
    expect((await api('POST', `/feeds/${alicesFeed}/interactions`, { as: mallory, json: { items: [{ activityId: secret.id, event: 'less' }] } })).status).toBe(
      404,
    );
    // A cursor naming a ranking that is not kept (expired): a 400 that says so.
    const forged = Buffer.from('AAAAAAAAAAAAAAAAAAAAAA.3').toString('base64url');
    const expired = await api('GET', `/feeds/${own}/activities`, { as: mallory, query: { cursor: forged } });
    expect(expired.status).toBe(400);
    expect(expired.body.detail ?? expired.body.title).toMatch(/expired/);
  });

  it('ranks the following source as the home feed reads it', async () => {
    const [reader, author] = [uid('reader'), uid('author')];
    expect((await api('PUT', `/following/${author}`, { as: reader })).status).toBe(204);
    const p1 = await mustPost(author, { verb: 'post' });
    await eventually(async () => ((await api('GET', '/feed', { as: reader })).body.items as { id: string }[]).some((i) => i.id === p1.id));
    const id = feedId();
    expect((await define(reader, id, { sources: [{ type: 'following' }], expression: 'followsAuthor * 5 + popularity' })).status).toBe(200);
    const p = await page(reader, id, { explain: 'true' });
    expect(ids(p)).toEqual([p1.id]);
    expect(p.items[0]!.variables).toMatchObject({ followsAuthor: 1, popularity: 0 });
    expect(p.items[0]!.score).toBe(5);
  });

  it('reads through @tickfeed/client: feeds, the rankedFeed iterator, sendInteractions', async () => {
    const [reader, author] = [uid('reader'), uid('author')];
    const posts = [await mustPost(author, { verb: 'post' }), await mustPost(author, { verb: 'post' }), await mustPost(author, { verb: 'post' })];
    const id = feedId();
    expect((await define(reader, id, byAuthors([author], 'age', { dropSeen: true }))).status).toBe(200);
    const client = createTickfeedClient({ baseUrl: stack.apiUrl, token: () => token(reader) });
    const listed = [];
    for await (const f of client.feeds({ limit: 1 })) listed.push(f.feedId);
    expect(listed).toEqual([id]);
    const read = async () => {
      const out = [];
      for await (const a of client.rankedFeed(id, { limit: 1 })) out.push(a.id);
      return out;
    };
    expect(await read()).toEqual(posts.map((p) => p.id)); // `age`: oldest first, one page each
    await client.sendInteractions(id, [{ activityId: posts[0]!.id, event: 'seen' }]);
    expect(await read()).toEqual(posts.slice(1).map((p) => p.id));
  });
});
