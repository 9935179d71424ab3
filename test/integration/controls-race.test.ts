/**
 * A mute and a block placed while a fan-out is running, on a stack of its own (handlers and worker
 * in this process; CONTROL_SETTLE = 2 s). The worker has read its follower page — the muter (the
 * blocker) still in it, unflagged — and holds its copy writes; the mute (block) lands and its first
 * cleanup runs; then the writes go. The second cleanup, CONTROL_SETTLE later, takes the late copy
 * back: nothing of the muted (blocked) author stays in the feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdCopiesOf, installCopyHold } from '../support/hold-copies.js';
import { call, sqs, stack, startOwnStack, stopOwnStack, storedCopies, uid, until } from '../support/own-stack.js';
import { jobQueuesEmpty } from '../support/settle.js';

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { CONTROL_SETTLE: '2s' } });
  const handlerClients = await import('../../functions/platform/clients.js');
  installCopyHold(handlerClients.dynamo);
}, 120_000);

afterAll(stopOwnStack);

async function raceWith(control: 'mutes' | 'blocks') {
  const [author, reader, other] = [uid('author'), uid('reader'), uid('other')];
  for (const follower of [reader, other]) expect((await call('PUT', `/following/${author}`, follower)).status).toBe(204);
  const before = await call('POST', '/activities', author, { verb: 'post', content: 'before' });
  await until(async () => (await storedCopies(reader)).includes(before.body.rangeKey), 'the first post in the reader\'s feed');

  const gate = holdCopiesOf(author);
  const during = await call('POST', '/activities', author, { verb: 'post', content: 'during' });
  await gate.atGate; // the worker read the follower page (reader unflagged) and holds its writes
  expect((await call('PUT', `/${control}/${author}`, reader)).status).toBe(204);
  await until(async () => !(await storedCopies(reader)).includes(before.body.rangeKey), 'the first cleanup');
  gate.open(); // the late copy lands now, after the first cleanup
  await until(async () => (await storedCopies(other)).includes(during.body.rangeKey), 'the held page written');
  await until(async () => (await storedCopies(reader)).length === 0, 'the settle cleanup takes the late copy back', 20_000);
  await until(() => jobQueuesEmpty(sqs, stack.queueUrls), 'every queued job to be done'); // nothing lands later
  expect(await storedCopies(reader)).toEqual([]);
  const after = await call('POST', '/activities', author, { verb: 'post', content: 'after' });
  await until(async () => (await storedCopies(other)).includes(after.body.rangeKey), 'the next post fanned out');
  expect(await storedCopies(reader)).toEqual([]);
  return { author, reader };
}

describe('a control placed while a fan-out is running', () => {
  it('mute: the follow stays, no copy of the muted author remains', async () => {
    const { author, reader } = await raceWith('mutes');
    expect((await call('GET', `/users/${reader}`, reader)).body.following).toBe(1);
    // Unmute: recent posts come back like a follow's backfill.
    expect((await call('DELETE', `/mutes/${author}`, reader)).status).toBe(204);
    await until(async () => (await storedCopies(reader)).length === 3, 'the backfill after unmute');
  }, 90_000);

  it('block: both follows end, no copy of the blocked author remains', async () => {
    const { reader } = await raceWith('blocks');
    expect((await call('GET', `/users/${reader}`, reader)).body.following).toBe(0);
  }, 90_000);
});
