/**
 * Newest-first pages by range-key cursor: `before` walks while posts keep arriving, `since`
 * refreshes, and every page costs exactly one Query (counted on the client).
 */
import { describe, expect, it } from 'vitest';
import { readPage } from '../../functions/core/feed/read.js';
import { isoFromTicks, nowTicks } from '../../functions/core/ticks.js';
import { as, ascending, countingClient, mustPost, newestFirst, type Page, pool } from '../support/feed.js';
import { stack, uid } from '../support/local.js';

// An hour ago: well inside the default 30-day TTL that reads apply.
const BASE = nowTicks() - 3_600_000_000_000n;
/** A distinct, increasing time per index (1 µs + 7 ns apart) so the expected order is known. */
const timeAt = (i: number) => isoFromTicks(BASE + BigInt(i) * 1_007n);

describe('GET /feed and GET /users/{userId}/activities', () => {
  it('walk 250+ items newest first with before, each exactly once, while posts keep arriving', async () => {
    const me = await as(uid('walker'));
    // 260 items, posted with "now" times (the ns clock), 12 in flight.
    const existing = await pool(Array.from({ length: 260 }, (_, i) => i), 12, (i) => mustPost(me, { verb: 'walk', attributes: { i } }));

    for (const path of ['/feed', `/users/${me.user}/activities`]) {
      const byNewest = newestFirst(existing);
      const seen: string[] = [];
      const first = await me.page(path, { limit: 25 });
      expect(first.status).toBe(200);
      // From now on, new posts arrive during the walk: newer ones (now) and late ones (backdated
      // into the middle of what is being walked).
      let stop = false;
      const arrivals: Promise<Awaited<ReturnType<typeof mustPost>>>[] = [];
      const writer = (async () => {
        for (let n = 0; !stop && n < 200; n++) {
          arrivals.push(mustPost(me, { verb: 'late', time: n % 2 ? new Date(Date.now() - 3_600_000).toISOString() : undefined }));
          await new Promise((r) => setTimeout(r, 3));
        }
      })();
      let page: Page = first.body;
      let pages = 1;
      for (;;) {
        seen.push(...page.items.map((x) => x.rangeKey));
        expect(ascending(page.items.map((x) => x.rangeKey))).toBe(true);
        if (page.lastRangeKey === null) break;
        expect(page.lastRangeKey).toBe(page.items.at(-1)!.rangeKey);
        const next = await me.page(path, { limit: 25, before: page.lastRangeKey });
        expect(next.status).toBe(200);
        page = next.body;
        pages++;
      }
      stop = true;
      await writer;
      const arrived = await Promise.all(arrivals);
      expect(arrived.length).toBeGreaterThan(0);

      expect(new Set(seen).size).toBe(seen.length); // never twice
      expect(ascending(seen)).toBe(true); // newest first across pages, too
      const seenSet = new Set(seen);
      for (const a of byNewest) expect(seenSet.has(a.rangeKey)).toBe(true); // never skipped
      // The walk starts at the newest item that existed; nothing newer can enter a `before` walk.
      expect(seen[0]).toBe(byNewest[0]!.rangeKey);
      expect(seen.every((k) => BigInt(k) >= BigInt(byNewest[0]!.rangeKey))).toBe(true);
      expect(pages).toBeGreaterThanOrEqual(Math.ceil(byNewest.length / 25));
      existing.push(...arrived); // the next walk must see these too
    }
  });

  it('since returns exactly the items newer than the cursor, nearest first in pages shown newest first', async () => {
    const me = await as(uid('since'));
    const posted = [];
    for (let i = 0; i < 10; i++) posted.push(await mustPost(me, { verb: 's', time: timeAt(i) }));
    // posted[9] is the newest. A client holding posted[0..2] refreshes from posted[2], 3 at a time,
    // continuing from the newest item it got while pages come back full.
    const keys = posted.map((p) => p.rangeKey);
    const p1 = (await me.page('/feed', { since: keys[2]!, limit: 3 })).body;
    expect(p1.items.map((x) => x.rangeKey)).toEqual([keys[5], keys[4], keys[3]]);
    const p2 = (await me.page('/feed', { since: p1.items[0]!.rangeKey, limit: 3 })).body;
    expect(p2.items.map((x) => x.rangeKey)).toEqual([keys[8], keys[7], keys[6]]);
    const p3 = (await me.page('/feed', { since: p2.items[0]!.rangeKey, limit: 3 })).body;
    expect(p3.items.map((x) => x.rangeKey)).toEqual([keys[9]]);
    // Caught up: nothing newer than the newest.
    expect((await me.page('/feed', { since: keys[9]! })).body).toEqual({ items: [], lastRangeKey: null });
    // The same through the author index, in one page.
    const all = (await me.page(`/users/${me.user}/activities`, { since: keys[2]!, limit: 100 })).body;
    expect(all.items.map((x) => x.rangeKey)).toEqual(keys.slice(3).reverse());
  });

  it('since after a walk picks up exactly what arrived above it', async () => {
    const me = await as(uid('refresh'));
    const before = await pool(Array.from({ length: 30 }, (_, i) => i), 6, () => mustPost(me, { verb: 'old' }));
    const top = (await me.page('/feed', { limit: 5 })).body.items[0]!;
    expect(top.rangeKey).toBe(newestFirst(before)[0]!.rangeKey);
    const arrived = await pool(Array.from({ length: 23 }, (_, i) => i), 6, () => mustPost(me, { verb: 'new' }));
    const got: string[] = [];
    let cursor = top.rangeKey;
    for (;;) {
      const page = (await me.page('/feed', { since: cursor, limit: 7 })).body;
      got.push(...page.items.map((x) => x.id));
      if (page.items.length < 7) break;
      cursor = page.items[0]!.rangeKey;
    }
    expect(got.sort()).toEqual(arrived.map((a) => a.id).sort());
  });

  it('costs exactly one Query per page (counted on the client), and ends without an empty page', async () => {
    const { counts, client } = countingClient();
    const me = await as(uid('count'));
    await pool(Array.from({ length: 50 }, (_, i) => i), 8, (i) => mustPost(me, { verb: 'q', time: timeAt(i) }));
    const table = stack.tableNames.feed;
    for (const [source, limit, expectedPages] of [
      [{ kind: 'feed', owner: me.user }, 25, 2], // exactly a multiple of the limit: no empty third page
      [{ kind: 'feed', owner: me.user }, 7, 8],
      [{ kind: 'author', userId: me.user }, 100, 1],
      [{ kind: 'author', userId: me.user }, 1, 50],
    ] as const) {
      counts.query = 0;
      let page = await readPage(table, { source, limit }, client);
      let pages = 1;
      let items = page.items.length;
      while (page.lastRangeKey !== null) {
        page = await readPage(table, { source, limit, before: BigInt(page.lastRangeKey) }, client);
        pages++;
        items += page.items.length;
      }
      expect(items).toBe(50);
      expect(pages).toBe(expectedPages);
      expect(counts.query).toBe(pages);
    }
    counts.query = 0;
    const since = await readPage(table, { source: { kind: 'feed', owner: me.user }, limit: 10, since: 9n * 10n ** 30n }, client);
    expect(since.items).toHaveLength(10);
    expect(counts.query).toBe(1);
  });

  it('validates page parameters (400 problem+json) and reports page latency', async () => {
    const me = await as(uid('params'));
    const bad: Record<string, string | number>[] = [{ limit: 0 }, { limit: 101 }, { limit: 'x' }, { before: 'x' }, { before: '1', since: '2' }, { nope: 1 }];
    for (const q of bad) {
      const res = await me.page('/feed', q);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
    await pool(Array.from({ length: 40 }, (_, i) => i), 8, () => mustPost(me, { verb: 'lat' }));
    const ms: number[] = [];
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      const res = await me.page('/feed', { limit: 20 });
      ms.push(performance.now() - t0);
      expect(res.body.items).toHaveLength(20);
    }
    ms.sort((a, b) => a - b);
    console.info(`GET /feed?limit=20 over HTTP (local): p50 ${ms[30]!.toFixed(1)} ms, p95 ${ms[57]!.toFixed(1)} ms`);
  });
});
