/**
 * What round 1's users saw, replayed on a stack of its own (FEED_MAX_ITEMS = 10 with
 * FEED_TRIM_CHANCE = 1, so every copy write attempts a trim and none is left to the draw; handlers
 * and pollers in this process so a delay can be injected into the fan-out worker's writes):
 *  1. retention of a home feed never touches what its owner posted;
 *  2. the client's clock never orders anyone's feed, and `since` catch-up keeps working;
 *  4. a DELETE in the middle of a fan-out or a backfill leaves no copy behind.
 * (Trim racing an unfollow cleanup: retention.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdCopiesOf, installCopyHold } from '../support/hold-copies.js';
import { jobDone } from '../support/job-done.js';
import { api } from '../support/api.js';
import { seedFollowers } from '../support/graph-seed.js';
import { uid } from '../support/ids.js';
import { own, settled, startOwnStack, stopOwnStack, storedCopies, tally } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

const N = 10;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { FEED_MAX_ITEMS: String(N), FEED_TRIM_CHANCE: '1' } });
  const handlerClients = await import('../../functions/platform/clients.js');
  installCopyHold(handlerClients.dynamo);
}, 120_000);

afterAll(stopOwnStack);

const ids = (page: { items: { id: string }[] }) => page.items.map((i) => i.id);

describe('1. home-feed retention never touches what a user owns', () => {
  it('alice keeps her post P (timeline, GET, DELETE, foreignId) while bob\'s posts trim her home feed', async () => {
    const [alice, bob, carol] = [uid('alice'), uid('bob'), uid('carol')];
    const p = await api('POST', '/activities', { on: own, as: alice, json: { verb: 'post', content: 'P', foreignId: 'p-1' } });
    expect(p.status).toBe(201);
    expect((await api('PUT', `/following/${alice}`, { on: own, as: carol })).status).toBe(204);
    expect((await api('PUT', `/following/${bob}`, { on: own, as: alice })).status).toBe(204);
    await eventually(async () => ids((await api('GET', '/feed', { on: own, as: carol })).body).includes(p.body.id), { what: 'carol gets P by backfill', timeoutMs: 60_000 });

    const bobs: string[] = [];
    for (let i = 0; i < 60; i++) bobs.push((await api('POST', '/activities', { on: own, as: bob, json: { verb: 'post', content: `b${i}` } })).body.id);
    const newest = [...bobs].reverse().slice(0, N);
    await eventually(async () => ids((await api('GET', `/feed?limit=${N}`, { on: own, as: alice })).body).join() === newest.join(), { what: "alice's feed shows bob's 10 newest", timeoutMs: 60_000 });
    // Trims ran on the write path (every copy write attempts one here; the first cuts at 2N + margin
    // copies): storage is below the 61 copies written, never below the N newest.
    await eventually(async () => (await storedCopies(alice)).length < 61, { what: 'a trim ran', timeoutMs: 60_000 });
    expect((await storedCopies(alice)).length).toBeGreaterThanOrEqual(N);

    const timeline = await api('GET', `/users/${alice}/activities`, { on: own, as: carol });
    expect(ids(timeline.body)).toEqual([p.body.id]);
    expect((await api('GET', `/activities/${p.body.id}`, { on: own, as: carol })).body).toEqual({ ...p.body, reactions: { counts: {}, own: [] } });
    expect(ids((await api('GET', '/feed', { on: own, as: carol })).body)).toContain(p.body.id);
    // Reposting the foreignId returns P (200), not a 409.
    const again = await api('POST', '/activities', { on: own, as: alice, json: { verb: 'post', content: 'P', foreignId: 'p-1' } });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(p.body.id);

    expect((await api('DELETE', `/activities/${p.body.id}`, { on: own, as: alice })).status).toBe(204);
    await eventually(async () => !ids((await api('GET', '/feed', { on: own, as: carol })).body).includes(p.body.id), { what: "P is retracted from carol's feed", timeoutMs: 60_000 });
    expect((await api('GET', `/activities/${p.body.id}`, { on: own, as: carol })).status).toBe(404);
    expect((await api('POST', '/activities', { on: own, as: alice, json: { verb: 'post', foreignId: 'p-1' } })).status).toBe(201);
  }, 120_000);
});

describe("2. the server's clock orders every feed", () => {
  it('refuses a far-future time, keeps a backdated one as the activity time only, and since catch-up finds the next post', async () => {
    const [author, reader] = [uid('clock-a'), uid('clock-r')];
    expect((await api('PUT', `/following/${author}`, { on: own, as: reader })).status).toBe(204);
    const future = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', time: '2262-01-01T00:00:00Z' } });
    expect(future.status).toBe(400);
    expect(future.body.errors.map((e: { field: string }) => e.field)).toEqual(['body.time']);

    const first = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'first' } });
    const skewed = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'skewed', time: new Date(Date.now() + 4 * 60_000).toISOString() } });
    const backdated = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'backdated', time: '2001-01-01T00:00:00Z' } });
    expect([first.status, skewed.status, backdated.status]).toEqual([201, 201, 201]);
    expect(backdated.body.time).toBe('2001-01-01T00:00:00.000000000Z');
    const order = [backdated.body.id, skewed.body.id, first.body.id]; // newest first = posting order reversed
    await eventually(async () => ids((await api('GET', '/feed', { on: own, as: reader })).body).join() === order.join(), { what: 'reader sees the posts in posting order', timeoutMs: 60_000 });

    // Catch-up from the newest item the reader holds finds the next post, whatever times came before.
    const head = (await api('GET', '/feed?limit=1', { on: own, as: reader })).body.items[0].rangeKey;
    const next = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'next' } });
    await eventually(async () => ids((await api('GET', `/feed?since=${head}`, { on: own, as: reader })).body).join() === next.body.id, { what: 'since finds the next post', timeoutMs: 60_000 });
    expect(ids((await api('GET', `/users/${author}/activities?since=${head}`, { on: own, as: reader })).body)).toEqual([next.body.id]);
  }, 60_000);
});

describe('4. a DELETE during a fan-out or a backfill leaves no copy', () => {
  it('fan-out: DELETE after the page of followers was read, before its copies are written', async () => {
    const author = uid('delfan');
    const followers = await seedFollowers(author, 60, { on: own });
    const gate = holdCopiesOf(author);
    const posted = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'regret' } });
    expect(posted.status).toBe(201);
    await gate.atGate; // the worker read the followers and holds its writes
    const retracted = jobDone('retract', (job) => job.rk === posted.body.rangeKey);
    expect((await api('DELETE', `/activities/${posted.body.id}`, { on: own, as: author })).status).toBe(204);
    await retracted; // the retract job passed these followers first (nothing to remove yet)
    gate.open();
    await eventually(async () => (await tally([...followers, author], posted.body.rangeKey)).exact === 0, { what: 'no copy left', timeoutMs: 60_000 });
    await settled(); // nothing lands late
    expect(await tally([...followers, author], posted.body.rangeKey)).toEqual({ exact: 0, wrong: 0 });
  }, 60_000);

  it('backfill: DELETE while a new follower\'s backfill holds its writes', async () => {
    const author = uid('delbf');
    // A sentinel follower tells when the posts' own fan-out is over: it cannot reach the reader,
    // who follows next, and be taken for the backfill at the gate.
    const [sentinel] = await seedFollowers(author, 1, { on: own });
    const kept = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'kept' } });
    const gone = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'gone' } });
    const both = [gone.body.rangeKey, kept.body.rangeKey].join();
    await eventually(async () => (await storedCopies(sentinel!)).join() === both, { what: "the posts' fan-out to the sentinel", timeoutMs: 60_000 });
    const reader = uid('delbf-r');
    const gate = holdCopiesOf(author);
    expect((await api('PUT', `/following/${author}`, { on: own, as: reader })).status).toBe(204);
    await gate.atGate;
    const retracted = jobDone('retract', (job) => job.rk === gone.body.rangeKey);
    expect((await api('DELETE', `/activities/${gone.body.id}`, { on: own, as: author })).status).toBe(204);
    await retracted;
    gate.open();
    await eventually(async () => (await storedCopies(reader)).join() === kept.body.rangeKey, { what: 'only the kept post remains', timeoutMs: 60_000 });
    await settled();
    expect(await storedCopies(reader)).toEqual([kept.body.rangeKey]);
  }, 60_000);
});
