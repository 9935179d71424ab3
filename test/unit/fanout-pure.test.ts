/** Pure parts of the fan-out: which stream records become jobs, job parsing, the hybrid merge. */
import { describe, expect, it } from 'vitest';
import { mergeSources } from '../../functions/core/fanout/hybrid.js';
import { parseJob } from '../../functions/core/fanout/jobs.js';
import { jobOfRecord } from '../../functions/core/fanout/outbox.js';
import { copyItem, originalItem, streamRecord } from '../support/seed-originals.js';

const original = originalItem({ actor: 'alice', verb: 'post', timeMs: Date.UTC(2026, 10, 22) });

describe('outbox: stream record → job', () => {
  it('turns the INSERT of an original into a fanout job carrying the item without pk/author', () => {
    const job = jobOfRecord(streamRecord('INSERT', original));
    expect(job).toMatchObject({ kind: 'fanout', author: 'alice', rk: String(original.rk) });
    const image = (job as { image: Record<string, unknown> }).image;
    expect(image.pk).toBeUndefined();
    expect(image.author).toBeUndefined();
    expect(image.verb).toEqual({ S: 'post' });
    expect(parseJob(JSON.stringify(job))).toEqual(job); // survives the queue
  });

  it('turns a delete mark into a retract that removes the original', () => {
    const marked = { ...original, deletedAt: '2026-11-22T00:00:01Z' };
    expect(jobOfRecord(streamRecord('MODIFY', marked, original))).toEqual({
      kind: 'retract', author: 'alice', rk: String(original.rk), removeOriginal: true,
    });
  });

  it('ignores copies, every REMOVE (trims, TTL, the final removal) and other modifications', () => {
    expect(jobOfRecord(streamRecord('REMOVE', original))).toBeUndefined();
    const marked = { ...original, deletedAt: '2026-11-22T00:00:01Z' };
    expect(jobOfRecord(streamRecord('INSERT', copyItem(original, 'bob')))).toBeUndefined();
    expect(jobOfRecord(streamRecord('REMOVE', copyItem(original, 'bob')))).toBeUndefined();
    expect(jobOfRecord(streamRecord('TTL', original))).toBeUndefined();
    expect(jobOfRecord(streamRecord('MODIFY', { ...original, content: 'edited' }, original))).toBeUndefined();
    expect(jobOfRecord(streamRecord('MODIFY', marked, marked))).toBeUndefined();
    expect(jobOfRecord(streamRecord('REMOVE', marked))).toBeUndefined();
  });

  it('rejects malformed jobs with InvalidJobError (they go to the DLQ, never silently dropped)', () => {
    expect(() => parseJob('not json')).toThrow(expect.objectContaining({ name: 'InvalidJobError' }));
    expect(() => parseJob('{"kind":"fanout","author":"a"}')).toThrow(expect.objectContaining({ name: 'InvalidJobError' }));
    expect(() => parseJob('{"kind":"retract","author":"a","rk":"12x"}')).toThrow(expect.objectContaining({ name: 'InvalidJobError' }));
  });
});

describe('hybrid merge', () => {
  const row = (rk: number, from: string) => ({ rk: BigInt(rk), id: `${from}-${rk}`, actor: from, verb: 'post', time: 't' });
  const ids = (page: { items: { id: string }[] }) => page.items.map((i) => i.id);

  it('merges by rk, newest first, and keeps one of two items with the same rk', () => {
    const page = mergeSources(
      [
        { items: [row(1, 'feed'), row(4, 'feed'), row(6, 'feed')] },
        { items: [row(2, 'celeb'), row(4, 'celeb'), row(5, 'celeb')] },
      ],
      { limit: 10 },
    );
    expect(ids(page)).toEqual(['feed-1', 'celeb-2', 'feed-4', 'celeb-5', 'feed-6']);
    expect(page.lastRangeKey).toBeNull();
  });

  it('never skips past a source that may hold more: cuts at the tightest frontier', () => {
    // The celebrity source stopped at rk 3 (full page); the feed has items beyond it.
    const page = mergeSources(
      [
        { items: [row(1, 'feed'), row(7, 'feed'), row(9, 'feed')] },
        { items: [row(2, 'celeb'), row(3, 'celeb')], frontier: 3n },
      ],
      { limit: 3 },
    );
    expect(ids(page)).toEqual(['feed-1', 'celeb-2', 'celeb-3']);
    expect(page.lastRangeKey).toBe('3');
    // A short page after a filter: the cursor is the frontier, not the last item.
    const short = mergeSources([{ items: [row(1, 'feed')] }, { items: [row(2, 'c')], frontier: 5n }], { limit: 3 });
    expect(ids(short)).toEqual(['feed-1', 'c-2']);
    expect(short.lastRangeKey).toBe('5');
  });

  it('for since, keeps the items closest to the cursor, newest first', () => {
    // Queried descending from the cursor (rk < 10): each source returns its closest first.
    const page = mergeSources(
      [
        { items: [row(9, 'feed'), row(6, 'feed')], frontier: 6n },
        { items: [row(8, 'c'), row(7, 'c'), row(2, 'c')] },
      ],
      { limit: 2, since: 10n },
    );
    expect(ids(page)).toEqual(['c-8', 'feed-9']);
  });
});
