/**
 * A mute and a block placed while a fan-out is running, on a stack of its own (handlers and worker
 * in this process; CONTROL_SETTLE = 2 s). The worker has read its follower page — the muter (the
 * blocker) still in it, unflagged — and holds its copy writes; the mute (block) lands and its first
 * cleanup runs; then the writes go. The second cleanup, CONTROL_SETTLE later, takes the late copy
 * back: nothing of the muted (blocked) author stays in the feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdCopiesOf, installCopyHold } from '../support/hold-copies.js';
import { api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { own, settled, startOwnStack, stopOwnStack, storedCopies } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { CONTROL_SETTLE: '2s' } });
  const handlerClients = await import('../../functions/platform/clients.js');
  installCopyHold(handlerClients.dynamo);
}, 120_000);

afterAll(stopOwnStack);

async function raceWith(control: 'mutes' | 'blocks') {
  const [author, reader, other] = [uid('author'), uid('reader'), uid('other')];
  for (const follower of [reader, other]) expect((await api('PUT', `/following/${author}`, { on: own, as: follower })).status).toBe(204);
  const before = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'before' } });
  await eventually(async () => (await storedCopies(reader)).includes(before.body.rangeKey), { what: "the first post in the reader's feed", timeoutMs: 60_000 });

  const gate = holdCopiesOf(author);
  const during = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'during' } });
  await gate.atGate; // the worker read the follower page (reader unflagged) and holds its writes
  expect((await api('PUT', `/${control}/${author}`, { on: own, as: reader })).status).toBe(204);
  await eventually(async () => !(await storedCopies(reader)).includes(before.body.rangeKey), { what: 'the first cleanup', timeoutMs: 60_000 });
  gate.open(); // the late copy lands now, after the first cleanup
  await eventually(async () => (await storedCopies(other)).includes(during.body.rangeKey), { what: 'the held page written', timeoutMs: 60_000 });
  await eventually(async () => (await storedCopies(reader)).length === 0, { what: 'the settle cleanup takes the late copy back', timeoutMs: 20_000 });
  await settled(); // nothing lands later
  expect(await storedCopies(reader)).toEqual([]);
  const after = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'after' } });
  await eventually(async () => (await storedCopies(other)).includes(after.body.rangeKey), { what: 'the next post fanned out', timeoutMs: 60_000 });
  expect(await storedCopies(reader)).toEqual([]);
  return { author, reader };
}

describe('a control placed while a fan-out is running', () => {
  it('mute: the follow stays, no copy of the muted author remains', async () => {
    const { author, reader } = await raceWith('mutes');
    expect((await api('GET', `/users/${reader}`, { on: own, as: reader })).body.following).toBe(1);
    // Unmute: recent posts come back like a follow's backfill.
    expect((await api('DELETE', `/mutes/${author}`, { on: own, as: reader })).status).toBe(204);
    await eventually(async () => (await storedCopies(reader)).length === 3, { what: 'the backfill after unmute', timeoutMs: 60_000 });
  }, 90_000);

  it('block: both follows end, no copy of the blocked author remains', async () => {
    const { reader } = await raceWith('blocks');
    expect((await api('GET', `/users/${reader}`, { on: own, as: reader })).body.following).toBe(0);
  }, 90_000);
});
