/**
 * Roads into a home feed meeting roads out (issue 40), on a stack of this file's own with its
 * pollers (CONTROL_SETTLE 2 s, so the controls' second cleanup runs within the test): a copy stays
 * while any road still brings it, and a mute or a block takes what a followed tag brought. Each
 * case failed on 4052106, where every job decided "does this reader hold a copy?" on its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, mustPost } from '../support/api.js';
import { uid } from '../support/ids.js';
import { own, settled, startOwnStack, stopOwnStack, storedCopies } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

beforeAll(() => startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { CONTROL_SETTLE: '2s' } }), 120_000);
afterAll(() => stopOwnStack());

const ok = async (method: string, path: string, as: string) => {
  const res = await api(method, path, { on: own, as });
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(204);
};
const holds = async (reader: string, rk: string) => (await storedCopies(reader)).includes(rk);
const shows = async (reader: string, id: string) =>
  ((await api('GET', '/feed', { on: own, as: reader })).body.items as { id: string }[]).some((i) => i.id === id);

describe('one rule for who holds a copy', () => {
  it('an author unfollowed, the post a still-followed tag brought stays (once); the post only the follow brought goes', async () => {
    const [alice, bob, tag] = [uid('alice'), uid('bob'), uid('t').replaceAll('-', '_')];
    await ok('PUT', `/following/${alice}`, bob);
    await ok('PUT', `/following/tags/${tag}`, bob);
    const tagged = await mustPost(alice, { verb: 'post', content: `tagged #${tag}` }, own);
    const plain = await mustPost(alice, { verb: 'post', content: 'plain' }, own);
    await eventually(async () => (await holds(bob, tagged.rangeKey)) && (await holds(bob, plain.rangeKey)), { what: "both posts in bob's feed" });
    await ok('DELETE', `/following/${alice}`, bob);
    await eventually(async () => !(await holds(bob, plain.rangeKey)), { what: "the plain post gone from bob's feed" });
    await settled('the unfollow and its second cleanup');
    expect((await storedCopies(bob)).filter((rk) => rk === tagged.rangeKey)).toHaveLength(1);
    expect(await shows(bob, tagged.id)).toBe(true);
  });

  it('a mute takes the post a followed tag brought out of the stored feed, and keeps later ones out', async () => {
    const [alice, carol, tag] = [uid('alice'), uid('carol'), uid('t').replaceAll('-', '_')];
    await ok('PUT', `/following/tags/${tag}`, carol); // carol does not follow alice
    const before = await mustPost(alice, { verb: 'post', content: `#${tag} before` }, own);
    await eventually(() => holds(carol, before.rangeKey), { what: "the tagged post in carol's feed" });
    await ok('PUT', `/mutes/${alice}`, carol);
    await eventually(async () => !(await holds(carol, before.rangeKey)), { what: "the muted author's post gone from carol's stored feed" });
    const after = await mustPost(alice, { verb: 'post', content: `#${tag} after` }, own);
    await settled('the mute, its second cleanup and the later post');
    const stored = await storedCopies(carol);
    expect(stored).not.toContain(before.rangeKey);
    expect(stored).not.toContain(after.rangeKey);
    expect(await shows(carol, before.id)).toBe(false);
  });

  it.each([
    ['the reader blocks the author', (reader: string, author: string) => ok('PUT', `/blocks/${author}`, reader)],
    ['the author blocks the reader', (reader: string, author: string) => ok('PUT', `/blocks/${reader}`, author)],
  ])('a block (%s) takes the post a followed tag brought out of the stored feed', async (_, block) => {
    const [alice, dave, tag] = [uid('alice'), uid('dave'), uid('t').replaceAll('-', '_')];
    await ok('PUT', `/following/tags/${tag}`, dave);
    const post = await mustPost(alice, { verb: 'post', content: `#${tag}` }, own);
    await eventually(() => holds(dave, post.rangeKey), { what: "the tagged post in dave's feed" });
    await block(dave, alice);
    await eventually(async () => !(await holds(dave, post.rangeKey)), { what: "the post gone from dave's stored feed" });
    await settled('the block and its second cleanups');
    expect(await holds(dave, post.rangeKey)).toBe(false);
    expect(await shows(dave, post.id)).toBe(false);
  });
});
