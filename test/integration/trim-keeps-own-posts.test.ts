/**
 * Retention of a home feed never touches what its owner posted (an early bug, replayed): on a stack
 * of its own with FEED_MAX_ITEMS = 10 and FEED_TRIM_CHANCE = 1, every copy write attempts a trim
 * and none is left to the draw. (Trim racing an unfollow cleanup: retention.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { idsOf } from '../support/feeds.js';
import { uid } from '../support/ids.js';
import { own, startTrimmingStack, stopOwnStack, storedCopies } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

const N = 10;
const BOB_POSTS = 40;

beforeAll(async () => {
  await startTrimmingStack(N);
}, 120_000);

afterAll(stopOwnStack);

describe('home-feed retention never touches what a user owns', () => {
  it("alice keeps her post P (timeline, GET, DELETE, foreignId) while bob's posts trim her home feed", async () => {
    const [alice, bob, carol] = [uid('alice'), uid('bob'), uid('carol')];
    const p = await api('POST', '/activities', { on: own, as: alice, json: { verb: 'post', content: 'P', foreignId: 'p-1' } });
    expect(p.status).toBe(201);
    expect((await api('PUT', `/following/${alice}`, { on: own, as: carol })).status).toBe(204);
    expect((await api('PUT', `/following/${bob}`, { on: own, as: alice })).status).toBe(204);
    await eventually(async () => idsOf((await api('GET', '/feed', { on: own, as: carol })).body).includes(p.body.id), {
      what: 'carol gets P by backfill',
      timeoutMs: 60_000,
    });

    // 40 posts: past the first trim (at 2N + margin = 23 copies, from the feed's newest) and the
    // next one (N + margin = 13 copies after the N-th it kept). Four at a time: the feed's order is
    // the posts' range keys, whatever order the responses come in.
    const bobs: { id: string; rangeKey: string }[] = [];
    for (let i = 0; i < BOB_POSTS; i += 4) {
      const batch = Array.from({ length: Math.min(4, BOB_POSTS - i) }, (_, j) =>
        api('POST', '/activities', { on: own, as: bob, json: { verb: 'post', content: `b${i + j}` } }),
      );
      for (const r of await Promise.all(batch)) {
        expect(r.status).toBe(201);
        bobs.push(r.body);
      }
    }
    // A range key counts down from a maximum: the newest post has the smallest.
    const newest = bobs
      .sort((a, b) => (BigInt(a.rangeKey) < BigInt(b.rangeKey) ? -1 : 1))
      .slice(0, N)
      .map((b) => b.id);
    await eventually(async () => idsOf((await api('GET', `/feed?limit=${N}`, { on: own, as: alice })).body).join() === newest.join(), {
      what: "alice's feed shows bob's 10 newest",
      timeoutMs: 60_000,
    });
    // Trims ran on the write path (every copy write attempts one here; the first cuts at 2N + margin
    // copies): storage is below the BOB_POSTS + 1 copies written, never below the N newest.
    await eventually(async () => (await storedCopies(alice)).length < BOB_POSTS + 1, { what: 'a trim ran', timeoutMs: 60_000 });
    expect((await storedCopies(alice)).length).toBeGreaterThanOrEqual(N);

    const timeline = await api('GET', `/users/${alice}/activities`, { on: own, as: carol });
    expect(idsOf(timeline.body)).toEqual([p.body.id]);
    expect((await api('GET', `/activities/${p.body.id}`, { on: own, as: carol })).body).toEqual({ ...p.body, reactions: { counts: {}, own: [] } });
    expect(idsOf((await api('GET', '/feed', { on: own, as: carol })).body)).toContain(p.body.id);
    // Reposting the foreignId returns P (200), not a 409.
    const again = await api('POST', '/activities', { on: own, as: alice, json: { verb: 'post', content: 'P', foreignId: 'p-1' } });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(p.body.id);

    expect((await api('DELETE', `/activities/${p.body.id}`, { on: own, as: alice })).status).toBe(204);
    await eventually(async () => !idsOf((await api('GET', '/feed', { on: own, as: carol })).body).includes(p.body.id), {
      what: "P is retracted from carol's feed",
      timeoutMs: 60_000,
    });
    expect((await api('GET', `/activities/${p.body.id}`, { on: own, as: carol })).status).toBe(404);
    expect((await api('POST', '/activities', { on: own, as: alice, json: { verb: 'post', foreignId: 'p-1' } })).status).toBe(201);
  }, 120_000);
});
