/**
 * Hybrid fan-out through HTTP on the shared stack (FANOUT_PULL_THRESHOLD = 50, so an author is
 * pulled at 50 followers and pushed again below 45): GET /feed merges the stored feed with the
 * pulled authors' originals, pages without gaps or duplicates, and stays the same across the
 * threshold change in both directions — also for a reader paging while it happens.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { feedHeadKey, parseFeedHead } from '../../functions/model/feed-head.js';
import { noBackfillOwed } from '../support/backfill.js';
import { feedCount } from '../support/feeds.js';
import { api, apiRetrying503 } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { openSocket } from '../support/realtime.js';
import { eventually } from '../support/wait.js';

interface Item {
  id: string;
  rangeKey: string;
}

/** The reader's home-feed head names `author` among the pulled authors they follow. */
const isPulledFor = async (reader: string, author: string) =>
  parseFeedHead((await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: feedHeadKey(reader), ConsistentRead: true }))).Item).pulled.includes(
    author,
  );

async function readAll(reader: string, limit: number, from?: string): Promise<Item[]> {
  const items: Item[] = [];
  let before = from;
  for (let i = 0; i < 50; i++) {
    const res = await api('GET', `/feed?limit=${limit}${before ? `&before=${before}` : ''}`, { as: reader });
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    before = res.body.lastRangeKey ?? undefined;
    if (!before) return items;
  }
  throw new Error('feed paging did not end');
}

describe('hybrid fan-out', () => {
  it('merges pulled authors into GET /feed by range key, across the threshold change both ways', async () => {
    const celeb = uid('celeb');
    const normal = uid('normal');
    const reader = uid('reader');
    const fans = Array.from({ length: 49 }, () => uid('fan'));
    const post = async (who: string, s: number) => {
      const res = await api('POST', '/activities', { as: who, json: { verb: 'post', content: `s${s}` } });
      expect(res.status).toBe(201);
      return res.body as Item;
    };
    expect((await api('PUT', `/following/${celeb}`, { as: reader })).status).toBe(204);
    expect((await api('PUT', `/following/${normal}`, { as: reader })).status).toBe(204);

    // Push era: copies land in the reader's stored feed.
    const pushEra = [await post(celeb, 1), await post(normal, 2), await post(celeb, 3), await post(normal, 4), await post(celeb, 5)];
    await eventually(async () => (await feedCount(reader)) === 5, { timeoutMs: 30_000, intervalMs: 200 });

    // 49 fans at once: the 50th follower pulls the celebrity.
    const follows = await Promise.all(fans.map((f) => apiRetrying503('PUT', `/following/${celeb}`, { as: f })));
    expect(follows.every((r) => r.status === 204)).toBe(true);
    await eventually(() => isPulledFor(reader, celeb), { timeoutMs: 30_000, intervalMs: 200 });

    // Pull era: the celebrity's posts are not copied; the normal user's still are. The reader is
    // connected: each post's fan-out job pushes `feed.item` to them after its copy writes (a pulled
    // author's to the connected followers, a pushed one's to the owners of the copies written), so
    // once the reader has the push of c6, c8 and c9, the jobs that would have copied them are done.
    const socket = await openSocket({ user: reader });
    const pullEra = [await post(celeb, 6), await post(normal, 7), await post(celeb, 8), await post(celeb, 9), await post(normal, 10)];
    await eventually(async () => (await feedCount(reader)) === 7, { timeoutMs: 30_000, intervalMs: 200 });
    for (const i of [0, 2, 3]) await socket.waitFor((m) => m.type === 'feed.item' && m.item.id === pullEra[i]!.id);
    await socket.close();
    expect(await feedCount(reader)).toBe(7); // c6, c8, c9 live only in the celebrity's partition
    // A follower who arrives while the author is pulled gets no copies, and reads the posts anyway.
    // Copies could only come by the follow's backfill: the edge owes none (or the job has finished).
    const late = uid('late');
    expect((await api('PUT', `/following/${celeb}`, { as: late })).status).toBe(204);
    await eventually(() => noBackfillOwed(late, celeb), { what: 'the late follow owing no backfill' });
    expect(await feedCount(late)).toBe(0);
    const celebPosts = [...pushEra, ...pullEra]
      .filter((_, i) => [0, 2, 4, 5, 7, 8].includes(i))
      .reverse()
      .map((i) => i.id);
    expect((await readAll(late, 4)).map((i) => i.id)).toEqual(celebPosts);

    const expected = [...pushEra, ...pullEra].reverse().map((i) => i.id); // newest first
    for (const limit of [1, 2, 3, 20]) {
      expect((await readAll(reader, limit)).map((i) => i.id)).toEqual(expected);
    }
    // since: the items just newer than the cursor, closest first, returned newest first.
    const since = await api('GET', `/feed?since=${pushEra[2]!.rangeKey}&limit=3`, { as: reader });
    expect(since.body.items.map((i: Item) => i.id)).toEqual([pullEra[0]!, pushEra[4]!, pushEra[3]!].map((i) => i.id));

    // A reader holding a cursor from the pull era keeps paging after the celebrity is pushed again.
    const firstPage = await api('GET', '/feed?limit=4', { as: reader });
    expect(firstPage.body.items.map((i: Item) => i.id)).toEqual(expected.slice(0, 4));
    const leaving = fans.slice(0, 7); // 51 → 44 < 45
    expect((await Promise.all(leaving.map((f) => apiRetrying503('DELETE', `/following/${celeb}`, { as: f })))).every((r) => r.status === 204)).toBe(true);
    await eventually(async () => !(await isPulledFor(reader, celeb)), { timeoutMs: 30_000, intervalMs: 200 });
    // Unpull copied the pull-era posts into the stored feed before dropping the pulled entry.
    expect(await feedCount(reader)).toBe(10);
    const rest = await readAll(reader, 4, firstPage.body.lastRangeKey);
    expect([...firstPage.body.items, ...rest].map((i: Item) => i.id)).toEqual(expected);
    expect((await readAll(reader, 3)).map((i) => i.id)).toEqual(expected);
  });
});

describe('mute of a pulled author', () => {
  it("takes the author out of the muter's pulled set (their posts leave the feed) and unmute brings them back", async () => {
    const celeb = uid('mceleb');
    const reader = uid('mreader');
    const fans = Array.from({ length: 49 }, () => uid('mfan'));
    for (const f of [reader, ...fans]) expect((await api('PUT', `/following/${celeb}`, { as: f })).status).toBe(204);
    await eventually(() => isPulledFor(reader, celeb), { timeoutMs: 30_000 });
    const posted = (await api('POST', '/activities', { as: celeb, json: { verb: 'post', content: 'pulled' } })).body as Item;
    const ids = async () => (await readAll(reader, 20)).map((i) => i.id);
    expect(await ids()).toContain(posted.id);

    expect((await api('PUT', `/mutes/${celeb}`, { as: reader })).status).toBe(204);
    expect(await isPulledFor(reader, celeb)).toBe(false);
    expect(await ids()).not.toContain(posted.id);
    expect(await isPulledFor(fans[0]!, celeb)).toBe(true); // the others still merge them

    expect((await api('DELETE', `/mutes/${celeb}`, { as: reader })).status).toBe(204);
    expect(await isPulledFor(reader, celeb)).toBe(true);
    expect(await ids()).toContain(posted.id);
  }, 60_000);
});
