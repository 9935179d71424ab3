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
import { call, seedFollowers, sqs, stack, startOwnStack, stopOwnStack, storedCopies, tally, uid, until } from '../support/own-stack.js';
import { jobQueuesEmpty } from '../support/settle.js';

/** Every job this stack queued has run (its queues are its own): what could land late has landed. */
const settled = () => until(() => jobQueuesEmpty(sqs, stack.queueUrls), 'every queued job to be done');

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
    const p = await call('POST', '/activities', alice, { verb: 'post', content: 'P', foreignId: 'p-1' });
    expect(p.status).toBe(201);
    expect((await call('PUT', `/following/${alice}`, carol)).status).toBe(204);
    expect((await call('PUT', `/following/${bob}`, alice)).status).toBe(204);
    await until(async () => ids((await call('GET', '/feed', carol)).body).includes(p.body.id), 'carol gets P by backfill');

    const bobs: string[] = [];
    for (let i = 0; i < 60; i++) bobs.push((await call('POST', '/activities', bob, { verb: 'post', content: `b${i}` })).body.id);
    const newest = [...bobs].reverse().slice(0, N);
    await until(async () => ids((await call('GET', `/feed?limit=${N}`, alice)).body).join() === newest.join(), "alice's feed shows bob's 10 newest");
    // Trims ran on the write path (every copy write attempts one here; the first cuts at 2N + margin
    // copies): storage is below the 61 copies written, never below the N newest.
    await until(async () => (await storedCopies(alice)).length < 61, 'a trim ran');
    expect((await storedCopies(alice)).length).toBeGreaterThanOrEqual(N);

    const timeline = await call('GET', `/users/${alice}/activities`, carol);
    expect(ids(timeline.body)).toEqual([p.body.id]);
    expect((await call('GET', `/activities/${p.body.id}`, carol)).body).toEqual({ ...p.body, reactions: { counts: {}, own: [] } });
    expect(ids((await call('GET', '/feed', carol)).body)).toContain(p.body.id);
    // Reposting the foreignId returns P (200), not a 409.
    const again = await call('POST', '/activities', alice, { verb: 'post', content: 'P', foreignId: 'p-1' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(p.body.id);

    expect((await call('DELETE', `/activities/${p.body.id}`, alice)).status).toBe(204);
    await until(async () => !ids((await call('GET', '/feed', carol)).body).includes(p.body.id), "P is retracted from carol's feed");
    expect((await call('GET', `/activities/${p.body.id}`, carol)).status).toBe(404);
    expect((await call('POST', '/activities', alice, { verb: 'post', foreignId: 'p-1' })).status).toBe(201);
  }, 120_000);
});

describe("2. the server's clock orders every feed", () => {
  it('refuses a far-future time, keeps a backdated one as the activity time only, and since catch-up finds the next post', async () => {
    const [author, reader] = [uid('clock-a'), uid('clock-r')];
    expect((await call('PUT', `/following/${author}`, reader)).status).toBe(204);
    const future = await call('POST', '/activities', author, { verb: 'post', time: '2262-01-01T00:00:00Z' });
    expect(future.status).toBe(400);
    expect(future.body.errors.map((e: { field: string }) => e.field)).toEqual(['body.time']);

    const first = await call('POST', '/activities', author, { verb: 'post', content: 'first' });
    const skewed = await call('POST', '/activities', author, { verb: 'post', content: 'skewed', time: new Date(Date.now() + 4 * 60_000).toISOString() });
    const backdated = await call('POST', '/activities', author, { verb: 'post', content: 'backdated', time: '2001-01-01T00:00:00Z' });
    expect([first.status, skewed.status, backdated.status]).toEqual([201, 201, 201]);
    expect(backdated.body.time).toBe('2001-01-01T00:00:00.000000000Z');
    const order = [backdated.body.id, skewed.body.id, first.body.id]; // newest first = posting order reversed
    await until(async () => ids((await call('GET', '/feed', reader)).body).join() === order.join(), 'reader sees the posts in posting order');

    // Catch-up from the newest item the reader holds finds the next post, whatever times came before.
    const head = (await call('GET', '/feed?limit=1', reader)).body.items[0].rangeKey;
    const next = await call('POST', '/activities', author, { verb: 'post', content: 'next' });
    await until(async () => ids((await call('GET', `/feed?since=${head}`, reader)).body).join() === next.body.id, 'since finds the next post');
    expect(ids((await call('GET', `/users/${author}/activities?since=${head}`, reader)).body)).toEqual([next.body.id]);
  }, 60_000);
});

describe('4. a DELETE during a fan-out or a backfill leaves no copy', () => {
  it('fan-out: DELETE after the page of followers was read, before its copies are written', async () => {
    const author = uid('delfan');
    const followers = await seedFollowers(author, 60);
    const gate = holdCopiesOf(author);
    const posted = await call('POST', '/activities', author, { verb: 'post', content: 'regret' });
    expect(posted.status).toBe(201);
    await gate.atGate; // the worker read the followers and holds its writes
    const retracted = jobDone('retract', (job) => job.rk === posted.body.rangeKey);
    expect((await call('DELETE', `/activities/${posted.body.id}`, author)).status).toBe(204);
    await retracted; // the retract job passed these followers first (nothing to remove yet)
    gate.open();
    await until(async () => (await tally([...followers, author], posted.body.rangeKey)).exact === 0, 'no copy left');
    await settled(); // nothing lands late
    expect(await tally([...followers, author], posted.body.rangeKey)).toEqual({ exact: 0, wrong: 0 });
  }, 60_000);

  it('backfill: DELETE while a new follower\'s backfill holds its writes', async () => {
    const author = uid('delbf');
    // A sentinel follower tells when the posts' own fan-out is over: it cannot reach the reader,
    // who follows next, and be taken for the backfill at the gate.
    const [sentinel] = await seedFollowers(author, 1);
    const kept = await call('POST', '/activities', author, { verb: 'post', content: 'kept' });
    const gone = await call('POST', '/activities', author, { verb: 'post', content: 'gone' });
    const both = [gone.body.rangeKey, kept.body.rangeKey].join();
    await until(async () => (await storedCopies(sentinel!)).join() === both, "the posts' fan-out to the sentinel");
    const reader = uid('delbf-r');
    const gate = holdCopiesOf(author);
    expect((await call('PUT', `/following/${author}`, reader)).status).toBe(204);
    await gate.atGate;
    const retracted = jobDone('retract', (job) => job.rk === gone.body.rangeKey);
    expect((await call('DELETE', `/activities/${gone.body.id}`, author)).status).toBe(204);
    await retracted;
    gate.open();
    await until(async () => (await storedCopies(reader)).join() === kept.body.rangeKey, 'only the kept post remains');
    await settled();
    expect(await storedCopies(reader)).toEqual([kept.body.rangeKey]);
  }, 60_000);
});
