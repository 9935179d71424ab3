/**
 * PATCH /activities/{id} on the shared stack: an edit reaches every follower's copy, the timeline
 * and GET /activities/{id} at the same position; its refusals (412, 404, 400) write nothing; a
 * patch that changes nothing writes nothing; the history is newest first, bounded and erased with
 * the activity and with the author (version 1's entry too); a newly mentioned user is notified
 * once, those who reacted or commented get one `edit` group a day; a connected follower gets
 * `feed.update`.
 */
import { describe, expect, it } from 'vitest';
import { HISTORY_KEEP } from '../../functions/model/activity-history.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { feedHeadKey, parseFeedHead } from '../../functions/model/feed-head.js';
import { ADMIN, api, apiRetrying503, mustPost } from '../support/api.js';
import { doc, stack } from '../support/local.js';
import { copyVersions, patchActivity, storedCopy, storedHistory, storedOriginal, versionHeld } from '../support/edits.js';
import { seedFollowers } from '../support/graph-seed.js';
import { uid } from '../support/ids.js';
import { groupsOf, groupsWhen } from '../support/notifications.js';
import { eventually } from '../support/wait.js';

/** A post by a new author with `n` followers, fanned out to all of them. */
async function fannedOutPost(n: number, body: Record<string, unknown> = { verb: 'post', content: 'helo wrold' }) {
  const author = uid('ed');
  const followers = await seedFollowers(author, n);
  const post = await mustPost(author, body);
  await eventually(async () => (await copyVersions([author, ...followers], post.id)).every((v) => v === 1), {
    what: 'the post in every feed',
    timeoutMs: 30_000,
  });
  return { author, followers, post };
}

describe('PATCH /activities/{id}', () => {
  it("reaches every follower's copy, the timeline and the activity, position unchanged", async () => {
    const { author, followers, post } = await fannedOutPost(30, { verb: 'post', content: 'helo wrold', attributes: { score: 1, team: 'red' } });
    expect(post.version).toBe(1);
    expect(post.editedAt).toBeNull();
    const res = await patchActivity(post.id, { content: 'hello world', attributes: { team: null, level: 3 } }, { as: author });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body).toMatchObject({
      id: post.id,
      rangeKey: post.rangeKey,
      time: post.time,
      verb: 'post',
      content: 'hello world',
      attributes: { score: 1, level: 3 },
      version: 2,
    });
    expect(typeof res.body.editedAt).toBe('string');

    await eventually(async () => (await copyVersions([author, ...followers], post.id)).every((v) => v === 2), {
      what: 'every copy at version 2',
      timeoutMs: 30_000,
    });
    const copy = await storedCopy(followers[7]!, post.id);
    expect(copy).toMatchObject({ content: 'hello world', version: expect.anything() });
    expect(copy!.attributes).toEqual({ score: expect.anything(), level: expect.anything() });

    const feed = await api('GET', '/feed', { as: followers[3] });
    expect(feed.body.items).toEqual([expect.objectContaining({ id: post.id, rangeKey: post.rangeKey, content: 'hello world', version: 2 })]);
    const timeline = await api('GET', `/users/${author}/activities`, { as: followers[0] });
    expect(timeline.body.items).toEqual([expect.objectContaining({ id: post.id, content: 'hello world', version: 2 })]);
    const one = await api('GET', `/activities/${post.id}`, { as: followers[0] });
    expect(one.headers.get('etag')).toBe('"2"');
    expect(one.body).toMatchObject({ content: 'hello world', version: 2, editedAt: res.body.editedAt });
  }, 60_000);

  it("refuses a stale If-Match (412), someone else's activity (404) and immutable fields (400), writing nothing", async () => {
    const author = uid('ed');
    const post = await mustPost(author, { verb: 'post', content: 'v1' });
    const first = await patchActivity(post.id, { content: 'v2' }, { as: author, ifMatch: '"1"' });
    expect(first.status).toBe(200);
    const before = await storedOriginal(post.id);

    const stale = await patchActivity(post.id, { content: 'v3' }, { as: author, ifMatch: '"1"' });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('content-type')).toContain('application/problem+json');
    expect((await patchActivity(post.id, { content: 'x' }, { as: uid('stranger') })).status).toBe(404);
    for (const field of [{ id: 'x' }, { verb: 'like' }, { time: '2026-01-01T00:00:00Z' }, { actor: 'y' }, { foreignId: 'f' }, { to: [] }]) {
      const res = await patchActivity(post.id, { content: 'v3', ...field }, { as: author });
      expect(res.status, JSON.stringify(field)).toBe(400);
    }
    expect((await patchActivity(post.id, { content: '' }, { as: author })).status).toBe(400);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`a${i}`, i]));
    expect((await patchActivity(post.id, { attributes: many }, { as: author })).status).toBe(400);
    expect((await api('PATCH', `/activities/${post.id}`, { as: author, raw: '{"content":"v3"}', headers: { 'content-type': 'text/plain' } })).status).toBe(415);

    expect(await storedOriginal(post.id)).toEqual(before);
    expect(await storedHistory(post.id)).toEqual([1]);

    // The current ETag passes; an admin token edits anyone's; plain application/json is a merge patch too.
    expect((await patchActivity(post.id, { content: 'v3' }, { as: author, ifMatch: 'W/"2"' })).status).toBe(200);
    const admin = await api('PATCH', `/activities/${post.id}`, { as: uid('backend'), scope: ADMIN, json: { object: 'photo:1' } });
    expect(admin.body).toMatchObject({ version: 4, content: 'v3', object: 'photo:1' });
  });

  it('a patch that changes nothing answers 200 and writes nothing', async () => {
    const author = uid('ed');
    const post = await mustPost(author, { verb: 'post', content: 'same', attributes: { n: 1 } });
    const res = await patchActivity(post.id, { content: 'same', attributes: { n: 1, gone: null } }, { as: author });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(versionHeld(await storedOriginal(post.id))).toBe(1);
    expect((await storedOriginal(post.id))!.editedAt).toBeUndefined();
    expect(await storedHistory(post.id)).toEqual([]);
  });

  it('a deleted activity is 404 and gets no edit', async () => {
    const author = uid('ed');
    const post = await mustPost(author, { verb: 'post', content: 'bye' });
    expect((await api('DELETE', `/activities/${post.id}`, { as: author })).status).toBe(204);
    expect((await patchActivity(post.id, { content: 'back' }, { as: author })).status).toBe(404);
    expect(versionHeld(await storedOriginal(post.id))).toBe(1);
    expect(await storedHistory(post.id)).toEqual([]);
  });
});

describe("a pulled author's edit", () => {
  it('writes no follower copy; their feeds merge the edited original', async () => {
    // The shared stack pulls an author at FANOUT_PULL_THRESHOLD = 50 followers (hybrid.test.ts).
    const celeb = uid('ed-celeb');
    const reader = uid('reader');
    expect((await api('PUT', `/following/${celeb}`, { as: reader })).status).toBe(204);
    const fans = Array.from({ length: 49 }, () => uid('fan'));
    expect((await Promise.all(fans.map((f) => apiRetrying503('PUT', `/following/${celeb}`, { as: f })))).every((r) => r.status === 204)).toBe(true);
    await eventually(
      async () =>
        parseFeedHead(
          (await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: feedHeadKey(reader), ConsistentRead: true }))).Item,
        ).pulled.includes(celeb),
      { what: 'the author pulled', timeoutMs: 30_000 },
    );
    const post = await mustPost(celeb, { verb: 'post', content: 'v1' });
    expect((await patchActivity(post.id, { content: 'v2' }, { as: celeb })).status).toBe(200);
    await eventually(async () => versionHeld(await storedCopy(celeb, post.id)) === 2, { what: "the author's own copy at v2", timeoutMs: 30_000 });
    const feed = await api('GET', '/feed', { as: reader });
    expect(feed.body.items.find((i: { id: string }) => i.id === post.id)).toMatchObject({ content: 'v2', version: 2 });
    expect(await copyVersions([reader, ...fans.slice(0, 10)], post.id)).toEqual(Array.from({ length: 11 }, () => 0));
  }, 90_000);
});

describe('GET /activities/{id}/history', () => {
  it('lists earlier versions newest first, keeps the last 20, and goes with the author', async () => {
    const author = uid('ed');
    const reader = uid('reader');
    const post = await mustPost(author, { verb: 'post', content: 'v1' });
    const edits = HISTORY_KEEP + 3;
    for (let v = 2; v <= edits + 1; v++) expect((await patchActivity(post.id, { content: `v${v}` }, { as: author })).status).toBe(200);
    const kept = Array.from({ length: HISTORY_KEEP }, (_, i) => edits - i); // versions 23 … 4
    expect(await storedHistory(post.id)).toEqual([...kept].reverse());

    const seen: { version: number; content: string; replacedAt: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await api('GET', `/activities/${post.id}/history`, { as: reader, query: { limit: 7, ...(cursor ? { cursor } : {}) } });
      expect(page.status).toBe(200);
      seen.push(...page.body.items);
      cursor = page.body.next ?? undefined;
    } while (cursor);
    expect(seen.map((v) => v.version)).toEqual(kept);
    expect(seen[0]).toMatchObject({ id: post.id, content: `v${edits}`, rangeKey: post.rangeKey });
    expect(typeof seen[0]!.replacedAt).toBe('string');
    expect((await api('GET', `/activities/${post.id}/history`, { as: reader, query: { cursor: 'bogus' } })).status).toBe(400);

    expect((await api('DELETE', `/users/${author}`, { as: uid('backend'), scope: ADMIN })).status).toBe(202);
    await eventually(async () => (await storedHistory(post.id)).length === 0 && (await storedOriginal(post.id)) === undefined, {
      what: 'the history erased with its author',
      timeoutMs: 60_000,
    });
    expect((await api('GET', `/activities/${post.id}/history`, { as: reader })).status).toBe(404);
  }, 90_000);

  it('an activity edited once: its one entry (version 1) goes with its DELETE, and with its author', async () => {
    const author = uid('ed');
    const [deleted, erased] = [await mustPost(author, { verb: 'post', content: 'a1' }), await mustPost(author, { verb: 'post', content: 'b1' })];
    for (const post of [deleted, erased]) expect((await patchActivity(post.id, { content: 'v2' }, { as: author })).status).toBe(200);
    expect([await storedHistory(deleted.id), await storedHistory(erased.id)]).toEqual([[1], [1]]);
    expect((await api('DELETE', `/activities/${deleted.id}`, { as: author })).status).toBe(204);
    await eventually(async () => (await storedHistory(deleted.id)).length === 0, { what: 'the history purged with the activity', timeoutMs: 30_000 });
    expect(await storedHistory(erased.id)).toEqual([1]);
    expect((await api('DELETE', `/users/${author}`, { as: uid('backend'), scope: ADMIN })).status).toBe(202);
    await eventually(async () => (await storedHistory(erased.id)).length === 0 && (await storedOriginal(erased.id)) === undefined, {
      what: 'the history erased with its author',
      timeoutMs: 60_000,
    });
  }, 90_000);
});

describe('what an edit tells', () => {
  it('notifies a newly mentioned user once, an already mentioned one not again, and those who reacted or commented in one group a day', async () => {
    const [author, bob, carol, dave, erin] = ['ed', 'bob', 'carol', 'dave', 'erin'].map((n) => uid(n)) as [string, string, string, string, string];
    const post = await mustPost(author, { verb: 'post', content: `hi @${bob}` });
    await groupsWhen(bob, (g) => g.length === 1, "bob's mention");
    expect((await api('PUT', `/activities/${post.id}/reactions/like`, { as: dave })).status).toBe(204);
    expect((await api('POST', `/activities/${post.id}/comments`, { as: erin, json: { text: 'typo!' } })).status).toBe(201);

    expect((await patchActivity(post.id, { content: `hi @${bob} and @${carol}` }, { as: author })).status).toBe(200);
    const forCarol = await groupsWhen(carol, (g) => g.length === 1, "carol's mention");
    expect(forCarol[0]).toMatchObject({ kind: 'mention', object: post.id, actors: [author] });
    for (const reader of [dave, erin]) {
      const edits = await groupsWhen(reader, (g) => g.some((x) => x.kind === 'edit'), `${reader}'s edit notice`);
      expect(edits.filter((x) => x.kind === 'edit')).toEqual([expect.objectContaining({ verb: 'edit', object: post.id, actors: [author], activityCount: 1 })]);
    }
    // A second edit the same day: the same group, one more event; bob, mentioned from the start, once.
    expect((await patchActivity(post.id, { content: `hi @${bob} and @${carol}!` }, { as: author })).status).toBe(200);
    const again = await groupsWhen(dave, (g) => g.some((x) => x.kind === 'edit' && x.activityCount === 2), "dave's second edit notice");
    expect(again.filter((x) => x.kind === 'edit')).toHaveLength(1);
    const forBob = await groupsOf(bob);
    expect(forBob).toEqual([expect.objectContaining({ kind: 'mention', object: post.id, activityCount: 1 })]);
    expect(await groupsOf(carol)).toEqual([expect.objectContaining({ kind: 'mention', activityCount: 1 })]);
  }, 60_000);

  it('pushes feed.update with the new version to a connected follower', async () => {
    const { openSocket } = await import('../support/realtime.js');
    const author = uid('ed');
    const follower = uid('live');
    expect((await api('PUT', `/following/${author}`, { as: follower })).status).toBe(204);
    const socket = await openSocket({ user: follower });
    try {
      const post = await mustPost(author, { verb: 'post', content: 'befor' });
      await socket.waitFor((m) => m.type === 'feed.item' && m.item.id === post.id);
      expect((await patchActivity(post.id, { content: 'before' }, { as: author })).status).toBe(200);
      const update = await socket.waitFor((m) => m.type === 'feed.update' && m.item.id === post.id);
      expect(update.item).toMatchObject({ id: post.id, rangeKey: post.rangeKey, content: 'before', version: 2 });
      expect(typeof update.seq).toBe('string');
    } finally {
      await socket.close();
    }
  }, 60_000);
});
