/**
 * An edit meets the post's own fan-out, a new follower's backfill, a DELETE and redelivered jobs,
 * on a stack of its own (handlers in this process, so writes can be held at a gate): whatever the
 * order, every copy ends at the original's version, and no copy of a deleted post comes back.
 * And an edit whose write of the original fails, or loses to another edit or a DELETE, leaves no
 * history entry of its own: the history holds only versions the original really had.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, mustPost } from '../support/api.js';
import { copyVersions, patchActivity, storedCopy, storedHistory, storedOriginal, versionHeld } from '../support/edits.js';
import { seedFollowers } from '../support/graph-seed.js';
import { holdCopiesOf, installCopyHold } from '../support/hold-copies.js';
import { holdEditsAt, installEditHold } from '../support/hold-edits.js';
import { failNextWrite, holdNextWrite, installOriginalWriteStop } from '../support/hold-original-writes.js';
import { uid } from '../support/ids.js';
import { jobDone } from '../support/job-done.js';
import { own, settled, sqs, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1 });
  const handlerClients = await import('../../functions/platform/clients.js');
  installCopyHold(handlerClients.dynamo);
  installEditHold(handlerClients.dynamo);
  installOriginalWriteStop(handlerClients.dynamo);
}, 120_000);

afterAll(stopOwnStack);

const allAt = async (owners: readonly string[], id: string, version: number) => (await copyVersions(owners, id, own)).every((v) => v === version);

async function expectAllAt(owners: readonly string[], id: string, version: number, content: string) {
  await eventually(() => allAt(owners, id, version), { what: `every copy at version ${version}`, timeoutMs: 60_000 });
  await settled(); // nothing lands late
  expect(new Set(await copyVersions(owners, id, own))).toEqual(new Set([version]));
  expect((await storedCopy(owners.at(-1)!, id, own))!.content).toBe(content);
}

describe('an edit never leaves a stale or resurrected copy', () => {
  it("racing the post's own fan-out: the page read v1, the edit's job passed before its writes", async () => {
    const author = uid('racefan');
    const followers = await seedFollowers(author, 40, { on: own });
    const gate = holdCopiesOf(author);
    const post = await mustPost(author, { verb: 'post', content: 'v1' }, own);
    await gate.atGate; // the fan-out page read the original (v1) and its followers; its writes wait
    const edited = jobDone('edit', (job) => job.rk === post.rangeKey);
    expect((await patchActivity(post.id, { content: 'v2' }, { on: own, as: author })).status).toBe(200);
    await edited; // updated the author's own copy; the followers had none yet
    gate.open();
    await expectAllAt([author, ...followers], post.id, 2, 'v2');
  }, 90_000);

  it("racing a new follower's backfill", async () => {
    const author = uid('racebf');
    const [sentinel] = await seedFollowers(author, 1, { on: own });
    const post = await mustPost(author, { verb: 'post', content: 'v1' }, own);
    await eventually(async () => (await copyVersions([sentinel!], post.id, own))[0] === 1, { what: 'the fan-out to the sentinel', timeoutMs: 30_000 });
    const reader = uid('racebf-r');
    const gate = holdCopiesOf(author);
    expect((await api('PUT', `/following/${author}`, { on: own, as: reader })).status).toBe(204);
    await gate.atGate; // the backfill read the post at v1; its write waits
    const edited = jobDone('edit', (job) => job.rk === post.rangeKey);
    expect((await patchActivity(post.id, { content: 'v2' }, { on: own, as: author })).status).toBe(200);
    await edited; // walked the reader (a follower now) before the backfill's copy existed
    gate.open();
    await expectAllAt([author, sentinel!, reader], post.id, 2, 'v2');
  }, 90_000);

  it('racing a DELETE: the edit job holds its updates while the retract passes', async () => {
    const author = uid('racedel');
    const followers = await seedFollowers(author, 30, { on: own });
    const post = await mustPost(author, { verb: 'post', content: 'v1' }, own);
    await eventually(() => allAt([author, ...followers], post.id, 1), { what: 'the fan-out', timeoutMs: 30_000 });
    const gate = holdEditsAt(post.rangeKey);
    expect((await patchActivity(post.id, { content: 'v2' }, { on: own, as: author })).status).toBe(200);
    await gate.atGate; // the edit job read the original (live, v2); its copy updates wait
    const retracted = jobDone('retract', (job) => job.rk === post.rangeKey);
    expect((await api('DELETE', `/activities/${post.id}`, { on: own, as: author })).status).toBe(204);
    await retracted;
    gate.open();
    await settled();
    expect(await copyVersions([author, ...followers], post.id, own)).toEqual([author, ...followers].map(() => 0));
  }, 90_000);

  it('redelivered fan-out pages and an older edit job redelivered after a newer one', async () => {
    const author = uid('redeliver');
    const followers = await seedFollowers(author, 20, { on: own });
    const post = await mustPost(author, { verb: 'post', content: 'v1' }, own);
    await eventually(() => allAt([author, ...followers], post.id, 1), { what: 'the fan-out', timeoutMs: 30_000 });
    expect((await patchActivity(post.id, { content: 'v2' }, { on: own, as: author })).status).toBe(200);
    expect((await patchActivity(post.id, { content: 'v3' }, { on: own, as: author })).status).toBe(200);
    await expectAllAt([author, ...followers], post.id, 3, 'v3');

    // The post's first fan-out page again, its stream image the post as first written (v1) …
    const image = {
      pk: { S: `t#${author}` },
      rk: { N: post.rangeKey },
      id: { S: post.id },
      actor: { S: author },
      verb: { S: 'post' },
      content: { S: 'v1' },
      time: { S: post.time },
    };
    const send = (job: unknown) => sqs.send(new SendMessageCommand({ QueueUrl: stack.queueUrls.fanout, MessageBody: JSON.stringify(job) }));
    const fannedOut = jobDone('fanout', (job) => job.rk === post.rangeKey);
    await send({ kind: 'fanout', author, rk: post.rangeKey, image });
    await fannedOut;
    // … and the first edit's job after the second's.
    const edited = jobDone('edit', (job) => job.rk === post.rangeKey && job.version === 2);
    await send({ kind: 'edit', author, rk: post.rangeKey, version: 2 });
    await edited;
    await expectAllAt([author, ...followers], post.id, 3, 'v3');
    expect((await storedOriginal(post.id, own))!.content).toBe('v3');
  }, 90_000);
});

describe('the history holds only versions the original really had', () => {
  it("an edit whose write of the original fails leaves no entry; the client's retries edit once", async () => {
    const author = uid('strayfail');
    const post = await mustPost(author, { verb: 'post', content: 'v1' }, own);
    const refused = failNextWrite(post.id, 'original');
    expect((await patchActivity(post.id, { content: 'v2' }, { on: own, as: author })).status).toBe(500);
    await refused.reached;
    expect(versionHeld(await storedOriginal(post.id, own))).toBe(1);
    expect(await storedHistory(post.id, own)).toEqual([]);
    // The client retries (twice: the first retry's answer lost too): one edit, one entry.
    for (let i = 0; i < 2; i++) {
      const retried = await patchActivity(post.id, { content: 'v2' }, { on: own, as: author });
      expect(retried.status).toBe(200);
      expect(retried.body).toMatchObject({ version: 2, content: 'v2' });
    }
    expect(await storedHistory(post.id, own)).toEqual([1]);
  }, 60_000);

  it("an edit that loses to another (412 for its stale If-Match) leaves the winner's entry as the winner wrote it", async () => {
    const author = uid('straylose');
    const post = await mustPost(author, { verb: 'post', content: 'v1' }, own);
    const gate = holdNextWrite(post.id, 'original or history');
    const loser = patchActivity(post.id, { content: 'lost' }, { on: own, as: author, ifMatch: '"1"' });
    await gate.atGate; // the loser read version 1; its first write waits
    expect((await patchActivity(post.id, { content: 'won' }, { on: own, as: author })).status).toBe(200);
    gate.open();
    expect((await loser).status).toBe(412);
    const original = (await storedOriginal(post.id, own))!;
    expect(original).toMatchObject({ content: 'won', editedAt: expect.any(String) });
    expect(versionHeld(original)).toBe(2);
    const history = await api('GET', `/activities/${post.id}/history`, { on: own, as: author });
    expect(history.body.items).toEqual([expect.objectContaining({ version: 1, content: 'v1', replacedAt: original.editedAt })]);
  }, 60_000);

  it('an edit that a DELETE overtakes leaves nothing for the purge to miss', async () => {
    const author = uid('straydel');
    const post = await mustPost(author, { verb: 'post', content: 'v1' }, own);
    const gate = holdNextWrite(post.id, 'original or history');
    const late = patchActivity(post.id, { content: 'v2' }, { on: own, as: author });
    await gate.atGate;
    const purged = jobDone('purge', (job) => job.rk === post.rangeKey);
    expect((await api('DELETE', `/activities/${post.id}`, { on: own, as: author })).status).toBe(204);
    await purged; // read the tombstone at version 1: no history to erase
    gate.open();
    expect((await late).status).toBe(404);
    expect(await storedHistory(post.id, own)).toEqual([]);
  }, 60_000);

  it("an edit landing while its author's erase reads the original: the erase takes the history it made", async () => {
    const { phaseSteps } = await import('../../functions/services/erase/phases.js');
    const author = uid('strayerase');
    const post = await mustPost(author, { verb: 'post', content: 'v1' }, own); // posted after the erase's mark phase
    const gate = holdNextWrite(post.id, 'original');
    const step = phaseSteps.originals(author);
    await gate.atGate; // the originals step read the post at version 1; its mark waits
    expect((await patchActivity(post.id, { content: 'v2' }, { on: own, as: author })).status).toBe(200);
    expect(await storedHistory(post.id, own)).toEqual([1]);
    gate.open();
    await step;
    expect(await storedOriginal(post.id, own)).toBeUndefined();
    expect(await storedHistory(post.id, own)).toEqual([]);
  }, 60_000);
});
