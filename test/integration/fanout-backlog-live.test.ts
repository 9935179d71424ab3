/**
 * The backlog lane end to end, on a stack of this file's own with its pollers running and
 * FANOUT_BACKLOG_AFTER=0s: every job the fanout lane receives counts as having waited too long and
 * is handed to fanoutBacklog, marked late, so the only way a follower gets a copy is the backlog
 * worker (past the first 100 followers too: a late job's further pages follow it there). Each follower gets the post exactly once. In the bundles
 * pass this is the flow that runs the fanoutBacklog worker from its bundle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, mustPost } from '../support/api.js';
import { seedFollowers } from '../support/graph-seed.js';
import { uid } from '../support/ids.js';
import { allDelivered, own, startOwnStack, stopOwnStack, storedCopies } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

beforeAll(() => startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { FANOUT_BACKLOG_AFTER: '0s' } }), 120_000);
afterAll(() => stopOwnStack());

describe('a fan-out through the backlog lane', () => {
  it('reaches each of 150 followers exactly once (a first page and its further page from the backlog)', async () => {
    const author = uid('bl-live');
    const followers = await seedFollowers(author, 150, { on: own });
    const post = await mustPost(author, { verb: 'post', content: 'through the backlog' }, own);
    await allDelivered(followers, post.rangeKey);
    expect(await storedCopies(author)).toEqual([post.rangeKey]);
  });

  it('brings an edit of a post with reactions to every copy (the edit’s first page, with its notices, from the backlog)', async () => {
    const author = uid('bl-edit');
    const followers = await seedFollowers(author, 4, { on: own });
    const post = await mustPost(author, { verb: 'post', content: 'helo' }, own);
    await allDelivered(followers, post.rangeKey);
    expect((await api('PUT', `/activities/${encodeURIComponent(post.id)}/reactions/like`, { as: followers[0]!, on: own })).status).toBe(204);
    expect((await api('PATCH', `/activities/${post.id}`, { as: author, json: { content: 'hello' }, on: own })).status).toBe(200);
    const contentIn = async (reader: string) =>
      ((await api('GET', '/feed', { as: reader, on: own })).body as { items: { id: string; content: string }[] }).items.find((i) => i.id === post.id)?.content;
    await eventually(async () => (await Promise.all(followers.map(contentIn))).every((c) => c === 'hello'), {
      what: 'the edit in every copy',
      timeoutMs: 30_000,
    });
  });
});
