/** Merging the sources of one feed page (home feed + pulled authors' timelines), and each source's frontier. */
import { describe, expect, it } from 'vitest';
import { mergeSources, sourceOf } from '../../functions/services/feed-merge.js';

/** A stored item as read with wrapNumbers: rk is a NumberValue-like object, not a bigint. */
const row = (rk: number, from: string) => ({
  pk: `f#${from}`,
  rk: { value: String(rk), toString: () => String(rk) },
  id: `${from}-${rk}`,
  actor: from,
  verb: 'post',
  time: 't',
});
const ids = (page: { items: { id: string }[] }) => page.items.map((i) => i.id);

describe('sourceOf', () => {
  const items = (...rks: number[]) => rks.map((rk) => row(rk, 's'));

  it('keeps `limit` of the limit + 1 asked for, with the last kept item as frontier', () => {
    const s = sourceOf(items(1, 2, 3), 3n, 2);
    expect(s.items.map((i) => String(i.rk))).toEqual(['1', '2']);
    expect(s.frontier).toBe(2n);
  });

  it('has no frontier when the Query came back short and complete', () => {
    const read = items(1, 2);
    const s = sourceOf(read, undefined, 2);
    expect(s.items).toBe(read);
    expect(s.frontier).toBeUndefined();
    expect(sourceOf([], undefined, 2).frontier).toBeUndefined();
  });

  it('stops at the last evaluated key when a filter (tombstones) shortened the page', () => {
    const s = sourceOf(items(1), 9n, 2);
    expect(s.items).toHaveLength(1);
    expect(s.frontier).toBe(9n);
  });

  it('sets no frontier when the last evaluated key is the home-feed head (rk 0): nothing lies above it', () => {
    // A `since` page that reached the top of a home feed: the head was the Limit-th item read.
    const read = items(3, 2);
    const s = sourceOf(read, 0n, 5);
    expect(s.items).toBe(read);
    expect(s.frontier).toBeUndefined();
    expect(sourceOf([], 0n, 5).frontier).toBeUndefined();
  });
});

describe('mergeSources', () => {
  it('merges by rk, newest first, and keeps one of two items with the same rk', () => {
    const page = mergeSources([{ items: [row(1, 'feed'), row(4, 'feed'), row(6, 'feed')] }, { items: [row(2, 'celeb'), row(4, 'celeb'), row(5, 'celeb')] }], {
      limit: 10,
    });
    expect(ids(page)).toEqual(['feed-1', 'celeb-2', 'feed-4', 'celeb-5', 'feed-6']);
    expect(page.items.map((i) => i.rangeKey)).toEqual(['1', '2', '4', '5', '6']);
    expect(page.last).toBeUndefined();
  });

  it('of two items with the same rk, shows the newer version (a pre-pull copy the author’s edit did not reach)', () => {
    const copy = { ...row(4, 'feed'), content: 'v1' };
    const original = { ...row(4, 'celeb'), content: 'v2', version: 2, editedAt: '2026-11-27T00:00:00Z' };
    expect(mergeSources([{ items: [copy] }, { items: [original] }], { limit: 10 }).items.map((i) => i.content)).toEqual(['v2']);
    expect(mergeSources([{ items: [original] }, { items: [copy] }], { limit: 10 }).items.map((i) => i.content)).toEqual(['v2']);
  });

  it('cuts a full page at `limit` and points the cursor at the last item shown', () => {
    const page = mergeSources([{ items: [row(1, 'a'), row(3, 'a')] }, { items: [row(2, 'b'), row(4, 'b')] }], { limit: 3 });
    expect(ids(page)).toEqual(['a-1', 'b-2', 'a-3']);
    expect(page.last).toBe('3');
  });

  it('never skips past a source that may hold more: cuts at the tightest frontier', () => {
    // The celebrity source stopped at rk 3 (full page); the feed has items beyond it.
    const page = mergeSources([{ items: [row(1, 'feed'), row(7, 'feed'), row(9, 'feed')] }, { items: [row(2, 'celeb'), row(3, 'celeb')], frontier: 3n }], {
      limit: 3,
    });
    expect(ids(page)).toEqual(['feed-1', 'celeb-2', 'celeb-3']);
    expect(page.last).toBe('3');
    // Fewer than `limit` before the frontier: the cursor is the frontier, not the last item.
    const short = mergeSources([{ items: [row(1, 'feed'), row(8, 'feed')] }, { items: [row(2, 'c')], frontier: 5n }], { limit: 3 });
    expect(ids(short)).toEqual(['feed-1', 'c-2']);
    expect(short.last).toBe('5');
  });

  it('a single source: the same rules, one frontier', () => {
    expect(mergeSources([sourceOf([row(1, 'a'), row(2, 'a'), row(3, 'a')], 3n, 2)], { limit: 2 })).toMatchObject({
      last: '2',
    });
    expect(mergeSources([sourceOf([row(1, 'a')], undefined, 2)], { limit: 2 }).last).toBeUndefined();
    expect(mergeSources([sourceOf([], undefined, 2)], { limit: 2 })).toEqual({ items: [], last: undefined });
  });

  it('for since, keeps the items closest to the cursor, newest first', () => {
    // Queried descending from the cursor (rk < 10): each source returns its closest first.
    const page = mergeSources([{ items: [row(9, 'feed'), row(6, 'feed')], frontier: 6n }, { items: [row(8, 'c'), row(7, 'c'), row(2, 'c')] }], {
      limit: 2,
      since: 10n,
    });
    expect(ids(page)).toEqual(['c-8', 'feed-9']);
    expect(page.last).toBe('9');
  });

  it('for since, never jumps over a source that may hold more nearer the cursor', () => {
    // The feed read 9 and 8 and may hold more below 8 (newer, farther from the cursor): only rks
    // in [8, 10) are complete, so c's 7 waits for the next `since` page (since = 8).
    const page = mergeSources([{ items: [row(9, 'feed'), row(8, 'feed')], frontier: 8n }, { items: [row(7, 'c')] }], { limit: 5, since: 10n });
    expect(ids(page)).toEqual(['feed-8', 'feed-9']);
  });
});
