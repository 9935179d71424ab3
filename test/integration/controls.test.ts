/**
 * Mutes and blocks on the shared local stack: what a mute hides (stored copies, new posts, a pulled
 * author's posts, notifications) while the follow stays; unmute backfill; what a block ends and
 * refuses. (Mute and block racing an in-flight fan-out: controls-race.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { as, mustPost } from '../support/feed.js';
import { api, eventually, token, uid } from '../support/local.js';

const call = async (method: string, path: string, user: string, json?: unknown) => api(method, path, { token: await token(user), json });
const feedIds = async (user: string) => ((await call('GET', '/feed?limit=100', user)).body.items as { id: string }[]).map((i) => i.id);
const counts = async (user: string) => (await call('GET', `/users/${user}`, user)).body as { followers: number; following: number };

describe('mute', () => {
  it("hides the muted user's stored and new posts from the caller's feed, keeps the follow, silences notifications; unmute brings them back", async () => {
    const alice = await as(uid('alice'));
    const bob = await as(uid('bob'));
    const carol = await as(uid('carol'));
    for (const who of [bob.user, carol.user]) expect((await call('PUT', `/following/${who}`, alice.user)).status).toBe(204);
    const b1 = await mustPost(bob, { verb: 'post', content: 'b1' });
    const c1 = await mustPost(carol, { verb: 'post', content: 'c1' });
    await eventually(async () => (await feedIds(alice.user)).includes(b1.id) && (await feedIds(alice.user)).includes(c1.id));

    expect((await call('PUT', `/mutes/${bob.user}`, alice.user)).status).toBe(204);
    expect((await call('PUT', `/mutes/${bob.user}`, alice.user)).status).toBe(204); // idempotent
    await eventually(async () => !(await feedIds(alice.user)).includes(b1.id));
    const b2 = await mustPost(bob, { verb: 'post', content: `b2 @${alice.user}`, to: [alice.user] });
    const c2 = await mustPost(carol, { verb: 'post', content: 'c2' });
    await eventually(async () => (await feedIds(alice.user)).includes(c2.id));
    expect(await feedIds(alice.user)).not.toContain(b2.id);
    expect(await counts(alice.user)).toEqual({ userId: alice.user, followers: 0, following: 2 }); // the follow stays
    expect((await call('GET', `/users/${bob.user}/followers`, alice.user)).body.items).toEqual([{ userId: alice.user }]);
    // bob's mention and `to` and like notify alice no more.
    await call('PUT', `/activities/${c1.id}/reactions/like`, bob.user);
    await call('PUT', `/activities/${b2.id}/reactions/like`, carol.user); // carol → bob: unaffected
    const likedBob = async () => (await call('GET', '/notifications', bob.user)).body.items.some((g: { verb: string }) => g.verb === 'like');
    await eventually(likedBob);
    expect((await call('GET', '/notifications', alice.user)).body.items).toEqual([]);
    expect((await call('GET', '/mutes', alice.user)).body).toEqual({ items: [{ userId: bob.user }], next: null });

    expect((await call('DELETE', `/mutes/${bob.user}`, alice.user)).status).toBe(204);
    await eventually(async () => {
      const ids = await feedIds(alice.user);
      return ids.includes(b1.id) && ids.includes(b2.id);
    });
    expect((await call('GET', '/mutes', alice.user)).body).toEqual({ items: [], next: null });
    const b3 = await mustPost(bob, { verb: 'post', content: 'b3' });
    await eventually(async () => (await feedIds(alice.user)).includes(b3.id));
  });

  it('a mute placed before a follow keeps the followee out from the start', async () => {
    const alice = uid('alice');
    const bob = await as(uid('bob'));
    const b1 = await mustPost(bob, { verb: 'post' });
    await call('PUT', `/mutes/${bob.user}`, alice);
    expect((await call('PUT', `/following/${bob.user}`, alice)).status).toBe(204);
    const b2 = await mustPost(bob, { verb: 'post' });
    const own = await mustPost(await as(alice), { verb: 'post' });
    await eventually(async () => (await feedIds(alice)).includes(own.id));
    await new Promise((r) => setTimeout(r, 500));
    const ids = await feedIds(alice);
    expect(ids).not.toContain(b1.id);
    expect(ids).not.toContain(b2.id);
  });

  it('lists page alphabetically with a cursor; bad input is a 400', async () => {
    const alice = uid('alice');
    const targets = ['m-c', 'm-a', 'm-b'].map((t) => `${t}-${alice}`);
    for (const t of targets) await call('PUT', `/mutes/${t}`, alice);
    const first = await call('GET', '/mutes?limit=2', alice);
    expect(first.body.items.map((i: { userId: string }) => i.userId)).toEqual([targets[1], targets[2]]);
    const second = await call('GET', `/mutes?limit=2&before=${first.body.next}`, alice);
    expect(second.body).toEqual({ items: [{ userId: targets[0] }], next: null });
    expect((await call('PUT', `/mutes/${alice}`, alice)).status).toBe(400);
    expect((await call('GET', '/mutes?before=%25%25', alice)).status).toBe(400);
  });
});

describe('block', () => {
  it('ends both follows with exact counts and both sides’ copies, and refuses what the blocked user may not do', async () => {
    const alice = await as(uid('alice'));
    const bob = await as(uid('bob'));
    await call('PUT', `/following/${bob.user}`, alice.user);
    await call('PUT', `/following/${alice.user}`, bob.user);
    const a1 = await mustPost(alice, { verb: 'post' });
    const b1 = await mustPost(bob, { verb: 'post' });
    await eventually(async () => (await feedIds(alice.user)).includes(b1.id) && (await feedIds(bob.user)).includes(a1.id));

    expect((await call('PUT', `/blocks/${bob.user}`, alice.user)).status).toBe(204);
    expect(await counts(alice.user)).toMatchObject({ followers: 0, following: 0 });
    expect(await counts(bob.user)).toMatchObject({ followers: 0, following: 0 });
    await eventually(async () => !(await feedIds(alice.user)).includes(b1.id) && !(await feedIds(bob.user)).includes(a1.id));

    expect((await call('PUT', `/following/${alice.user}`, bob.user)).status).toBe(403);
    expect((await call('PUT', `/activities/${a1.id}/reactions/like`, bob.user)).status).toBe(403);
    expect((await call('POST', `/activities/${a1.id}/comments`, bob.user, { text: 'hi' })).status).toBe(403);
    expect((await call('GET', `/users/${alice.user}/activities`, bob.user)).status).toBe(404);
    expect((await call('GET', `/activities/${a1.id}`, bob.user)).status).toBe(404);
    expect((await call('GET', `/activities/${a1.id}/comments`, bob.user)).status).toBe(404);
    // Mentions and targets notify alice no more.
    const b2 = await mustPost(bob, { verb: 'post', content: `@${alice.user}`, to: [alice.user] });
    expect(b2.id).toBeTruthy();
    await new Promise((r) => setTimeout(r, 1000));
    // (bob's follow of alice, from before the block, stays: notification groups are history.)
    const fromBob = (await call('GET', '/notifications', alice.user)).body.items.filter((g: { verb: string }) => g.verb !== 'follow');
    expect(fromBob).toEqual([]);
    // Others are unaffected, and alice still sees bob's timeline.
    expect((await call('GET', `/users/${alice.user}/activities`, uid('carol'))).status).toBe(200);
    expect((await call('GET', `/users/${bob.user}/activities`, alice.user)).status).toBe(200);
    expect((await call('GET', '/blocks', alice.user)).body).toEqual({ items: [{ userId: bob.user }], next: null });

    expect((await call('DELETE', `/blocks/${bob.user}`, alice.user)).status).toBe(204);
    expect((await call('PUT', `/following/${alice.user}`, bob.user)).status).toBe(204);
    expect(await counts(alice.user)).toMatchObject({ followers: 1, following: 0 }); // not restored, just allowed
  });
});
