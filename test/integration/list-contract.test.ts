/**
 * One contract for every list that is not a feed (followers, following, comments, notifications,
 * mutes, blocks; services/list-page.ts): `?limit=&cursor=`, every page `{ items, next }` with `next`
 * present on every page and null on the last, and `cursor` followed to the end gives the whole list
 * once, in order, whatever the page size. The old parameters (`before`, `lastRangeKey`) are unknown
 * fields (400), and a cursor the API did not hand out is the shared invalid-cursor 400.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Activity } from '../../functions/model/activity.js';
import { api, mustPost } from '../support/api.js';
import { uid } from '../support/ids.js';
import { eventually } from '../support/wait.js';

/** Fields a list's page may carry beside `items` and `next` (a notification page's counts). */
const BESIDE: Record<string, string[]> = { '/notifications': ['unread', 'unseen'] };

const owner = uid('lists');
const others = Array.from({ length: 3 }, () => ({ follower: uid('fan'), followee: uid('star'), muted: uid('muted'), blocked: uid('blocked') }));
let post: Activity;

/** Every list, by the path that reads it (as `owner`), with how many items the setup gives it. */
const lists = () =>
  ({
    [`/users/${owner}/followers`]: 3,
    [`/users/${owner}/following`]: 3,
    [`/activities/${encodeURIComponent(post.id)}/comments`]: 3,
    '/notifications': 5, // follow (3 actors), comment (3 events), like, love, wow
    '/mutes': 3,
    '/blocks': 3,
  }) as Record<string, number>;

const ok = async (method: string, path: string, as: string, json?: unknown) => {
  const res = await api(method, path, { as, json });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res;
};

beforeAll(async () => {
  post = await mustPost(owner, { verb: 'post', content: 'lists' });
  for (const { follower, followee, muted, blocked } of others) {
    await ok('PUT', `/following/${owner}`, follower);
    await ok('PUT', `/following/${followee}`, owner);
    await ok('PUT', `/mutes/${muted}`, owner);
    await ok('PUT', `/blocks/${blocked}`, owner);
    await ok('POST', `/activities/${encodeURIComponent(post.id)}/comments`, follower, { text: `from ${follower}` });
  }
  for (const kind of ['like', 'love', 'wow']) await ok('PUT', `/activities/${encodeURIComponent(post.id)}/reactions/${kind}`, others[0]!.follower);
  // Notifications arrive through jobs: wait until every group is whole, so no page sees one move.
  await eventually(
    async () => {
      const groups: { verb: string; actorCount: number; activityCount: number }[] = (await api('GET', '/notifications?limit=100', { as: owner })).body.items;
      const of = (verb: string) => groups.find((g) => g.verb === verb);
      return groups.length === 5 && of('follow')?.actorCount === 3 && of('comment')?.activityCount === 3 && ['like', 'love', 'wow'].every(of);
    },
    { what: "the owner's five notification groups, complete", timeoutMs: 30_000 },
  );
});

/** Walks `path` by `cursor`, `limit` at a time, checking each page's shape; every item seen, in order. */
async function walk(path: string, limit: number): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | null = null;
  for (let pages = 1; ; pages++) {
    const res: { status: number; body: { items: unknown[]; next: string | null } } = await api('GET', path, {
      as: owner,
      query: { limit, ...(cursor !== null && { cursor }) },
    });
    expect(res.status, `${path} limit=${limit} cursor=${cursor}`).toBe(200);
    expect(Object.keys(res.body).sort(), path).toEqual(['items', 'next', ...(BESIDE[path] ?? [])].sort());
    expect(res.body.items.length, path).toBeLessThanOrEqual(limit);
    items.push(...res.body.items);
    // A page that says more follow is full, and the last page is never an empty one after a full page.
    if (res.body.next !== null) expect(res.body.items.length, `${path}: a page before the last is full`).toBe(limit);
    else if (pages > 1) expect(res.body.items.length, `${path}: the last page holds something`).toBeGreaterThan(0);
    if (res.body.next === null) return items;
    expect(typeof res.body.next === 'string' && res.body.next !== cursor, `${path}: a new cursor or null`).toBe(true);
    cursor = res.body.next;
    expect(pages, `${path}: more pages than items`).toBeLessThanOrEqual(10);
  }
}

describe('every list that is not a feed', () => {
  it('answers { items, next } with next null on the last page, and cursor reaches every item once, in order', async () => {
    for (const [path, size] of Object.entries(lists())) {
      const whole = await api('GET', path, { as: owner, query: { limit: 100 } });
      expect(whole.body.next, `${path}: all of it on one page`).toBeNull();
      expect(whole.body.items, path).toHaveLength(size);
      const keys = whole.body.items.map((item: unknown) => JSON.stringify(item));
      expect(new Set(keys).size, `${path}: no item twice`).toBe(size);
      // 1 and 2, and the list's size: a page exactly full at the end says next null.
      for (const limit of [1, 2, size]) expect(await walk(path, limit), `${path} limit=${limit}`).toEqual(whole.body.items);
      const exact = await api('GET', path, { as: owner, query: { limit: size } });
      expect([exact.body.items.length, exact.body.next], `${path} limit=${size}`).toEqual([size, null]);
    }
  });

  it('refuses the old parameters as unknown fields, and a cursor it did not hand out as the shared invalid cursor', async () => {
    for (const path of Object.keys(lists())) {
      const first = await api('GET', path, { as: owner, query: { limit: 1 } });
      const cursor = first.body.next as string; // a real cursor: refused by name, not by value
      for (const old of ['before', 'lastRangeKey']) {
        const res = await api('GET', path, { as: owner, query: { limit: 1, [old]: cursor } });
        expect([res.status, res.body.code, res.body.errors], `${path} ?${old}=`).toEqual([
          400,
          'validation_failed',
          [{ field: `query.${old}`, message: 'Unknown field.' }],
        ]);
      }
      const bogus = await api('GET', path, { as: owner, query: { cursor: 'not-a-cursor' } });
      expect([bogus.status, bogus.body.errors], `${path} ?cursor=not-a-cursor`).toEqual([
        400,
        [{ field: 'query.cursor', message: 'a `next` from a previous page' }],
      ]);
      // Shaped like a real cursor but longer than any key DynamoDB takes: still the 400, never a 500.
      for (const long of [`${'0'.repeat(19)}#${'x'.repeat(1500)}`, 'x'.repeat(1500)]) {
        const res = await api('GET', path, { as: owner, query: { cursor: Buffer.from(long).toString('base64url') } });
        expect([res.status, res.body.errors], `${path} a ${long.length}-character cursor`).toEqual([
          400,
          [{ field: 'query.cursor', message: 'a `next` from a previous page' }],
        ]);
      }
    }
    const exported = await api('GET', '/me/export', { as: owner, query: { cursor: 'not-a-cursor' } });
    expect([exported.status, exported.body.errors]).toEqual([400, [{ field: 'query.cursor', message: 'a `next` from a previous page' }]]);
    expect((await api('GET', '/me/export', { as: owner, query: { before: 'x' } })).body.errors).toEqual([{ field: 'query.before', message: 'Unknown field.' }]);
  });
});
