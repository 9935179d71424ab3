/**
 * A DELETE in the middle of a fan-out or a backfill leaves no copy behind, on a stack of its own
 * (handlers and pollers in this process, so the fan-out worker's copy writes can be held at a gate
 * while the DELETE and its retract job run; FEED_MAX_ITEMS = 10 with FEED_TRIM_CHANCE = 1, as the
 * other retention replays: every copy write attempts a trim).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { seedFollowers } from '../support/graph-seed.js';
import { holdCopiesOf, installCopyHold } from '../support/hold-copies.js';
import { uid } from '../support/ids.js';
import { jobDone } from '../support/job-done.js';
import { own, settled, startTrimmingStack, stopOwnStack, storedCopies, tally } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

const N = 10;

beforeAll(async () => {
  await startTrimmingStack(N);
  const handlerClients = await import('../../functions/platform/clients.js');
  installCopyHold(handlerClients.dynamo);
}, 120_000);

afterAll(stopOwnStack);

describe('a DELETE during a fan-out or a backfill leaves no copy', () => {
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

  it("backfill: DELETE while a new follower's backfill holds its writes", async () => {
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
