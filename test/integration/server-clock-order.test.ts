/**
 * The server's clock orders every feed, whatever time a client sends (an early bug, replayed on a
 * stack of its own, FEED_MAX_ITEMS = 10 with FEED_TRIM_CHANCE = 1 as the other replays): a far-future
 * time is refused, a backdated one is the activity's time only, and `since` catch-up finds the
 * next post.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { idsOf } from '../support/feeds.js';
import { uid } from '../support/ids.js';
import { own, startTrimmingStack, stopOwnStack } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

const N = 10;

beforeAll(async () => {
  await startTrimmingStack(N);
}, 120_000);

afterAll(stopOwnStack);

describe("the server's clock orders every feed", () => {
  it('refuses a far-future time, keeps a backdated one as the activity time only, and since catch-up finds the next post', async () => {
    const [author, reader] = [uid('clock-a'), uid('clock-r')];
    expect((await api('PUT', `/following/${author}`, { on: own, as: reader })).status).toBe(204);
    const future = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', time: '2262-01-01T00:00:00Z' } });
    expect(future.status).toBe(400);
    expect(future.body.errors.map((e: { field: string }) => e.field)).toEqual(['body.time']);

    const first = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'first' } });
    const skewed = await api('POST', '/activities', {
      on: own,
      as: author,
      json: { verb: 'post', content: 'skewed', time: new Date(Date.now() + 4 * 60_000).toISOString() },
    });
    const backdated = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'backdated', time: '2001-01-01T00:00:00Z' } });
    expect([first.status, skewed.status, backdated.status]).toEqual([201, 201, 201]);
    expect(backdated.body.time).toBe('2001-01-01T00:00:00.000000000Z');
    const order = [backdated.body.id, skewed.body.id, first.body.id]; // newest first = posting order reversed
    await eventually(async () => idsOf((await api('GET', '/feed', { on: own, as: reader })).body).join() === order.join(), {
      what: 'reader sees the posts in posting order',
      timeoutMs: 60_000,
    });

    // Catch-up from the newest item the reader holds finds the next post, whatever times came before.
    const head = (await api('GET', '/feed?limit=1', { on: own, as: reader })).body.items[0].rangeKey;
    const next = await api('POST', '/activities', { on: own, as: author, json: { verb: 'post', content: 'next' } });
    await eventually(async () => idsOf((await api('GET', `/feed?since=${head}`, { on: own, as: reader })).body).join() === next.body.id, {
      what: 'since finds the next post',
      timeoutMs: 60_000,
    });
    expect(idsOf((await api('GET', `/users/${author}/activities?since=${head}`, { on: own, as: reader })).body)).toEqual([next.body.id]);
  }, 60_000);
});
