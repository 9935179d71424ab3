/**
 * The one Query behind every feed page, built without the network: the key range of a request
 * (rangeOf) and the QueryCommandInput for a timeline or a home feed (stores/feed-store.ts).
 */
import { describe, expect, it } from 'vitest';
import { homeFeedPageInput, pageInput, timelinePageInput } from '../../functions/stores/feed-store.js';
import { rangeOf } from '../../functions/services/feed-reading.js';

// Table names are read on first use (functions/platform/env.ts); nothing here sends a request.
process.env.FEED_TABLE = 'feed-unit';

describe('rangeOf', () => {
  it('asks for `extra` more than the page: one to know there is more (timelines), one more for the head (home feeds)', () => {
    expect(rangeOf({ limit: 20 }, undefined, 1)).toEqual({ after: undefined, below: undefined, descending: false, limit: 21 });
    expect(rangeOf({ limit: 20 }, undefined, 2)).toMatchObject({ limit: 22 });
  });

  it('pages older with before: rk > cursor, ascending, under the age bound', () => {
    expect(rangeOf({ limit: 5, before: 100n }, 900n, 1)).toEqual({ after: 100n, below: 900n, descending: false, limit: 6 });
  });

  it('pages newer with since: rk below the cursor or the age bound, whichever is tighter, descending', () => {
    expect(rangeOf({ limit: 3, since: 500n }, 400n, 1)).toEqual({ after: undefined, below: 400n, descending: true, limit: 4 });
    expect(rangeOf({ limit: 3, since: 300n }, 400n, 1)).toMatchObject({ below: 300n, descending: true });
    expect(rangeOf({ limit: 3, since: 300n }, undefined, 1)).toMatchObject({ below: 300n, descending: true });
  });
});

describe('home-feed page Query', () => {
  it('reads the newest page of f#owner, ascending, with no filter (copies only; the head at rk 0 comes along)', () => {
    expect(homeFeedPageInput('alice', rangeOf({ limit: 20 }, undefined, 2))).toEqual({
      TableName: 'feed-unit',
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'f#alice' },
      ScanIndexForward: true,
      Limit: 22,
    });
  });

  it('pages older with before (rk > cursor): never the head', () => {
    const q = homeFeedPageInput('alice', { after: 100n, limit: 6 });
    expect(q).toMatchObject({ KeyConditionExpression: 'pk = :pk AND rk > :lo', ExpressionAttributeValues: { ':pk': 'f#alice', ':lo': 100n } });
    expect(q?.FilterExpression).toBeUndefined();
  });
});

describe('timeline page Query', () => {
  it('reads t#author and hides tombstones with a filter', () => {
    expect(timelinePageInput('bob', rangeOf({ limit: 5, before: 100n }, undefined, 1))).toEqual({
      TableName: 'feed-unit',
      KeyConditionExpression: 'pk = :pk AND rk > :lo',
      FilterExpression: 'attribute_not_exists(deletedAt)',
      ExpressionAttributeValues: { ':pk': 't#bob', ':lo': 100n },
      ScanIndexForward: true,
      Limit: 6,
    });
  });

  it('reads newer with since descending (closest to the cursor first), under the age bound', () => {
    const q = timelinePageInput('a', rangeOf({ limit: 3, since: 500n }, 400n, 1));
    expect(q).toMatchObject({ KeyConditionExpression: 'pk = :pk AND rk < :hi', ScanIndexForward: false, Limit: 4 });
    expect(q?.ExpressionAttributeValues).toEqual({ ':pk': 't#a', ':hi': 400n });
  });
});

describe('pageInput ranges', () => {
  it('combines before and the bound into BETWEEN of the integers strictly inside', () => {
    const q = pageInput('t#a', { after: 10n, below: 20n, limit: 3 }, { hideTombstones: true });
    expect(q).toMatchObject({ KeyConditionExpression: 'pk = :pk AND rk BETWEEN :lo AND :hi' });
    expect(q?.ExpressionAttributeValues).toEqual({ ':pk': 't#a', ':lo': 11n, ':hi': 19n });
    // One integer left (11): still a valid BETWEEN.
    expect(pageInput('t#a', { after: 10n, below: 12n, limit: 3 }, { hideTombstones: true })?.ExpressionAttributeValues).toMatchObject({
      ':lo': 11n,
      ':hi': 11n,
    });
  });

  it('sends nothing for an empty range (BETWEEN would be refused, and nothing can match)', () => {
    expect(pageInput('t#a', { after: 10n, below: 11n, limit: 3 }, { hideTombstones: true })).toBeUndefined();
    expect(pageInput('t#a', { after: 10n, below: 5n, limit: 3 }, { hideTombstones: true })).toBeUndefined();
    expect(pageInput('f#a', { below: 0n, limit: 3 }, { hideTombstones: false })).toBeUndefined();
  });

  it('keeps a since page of a home feed able to reach the head (rk < 1 is only rk 0)', () => {
    expect(homeFeedPageInput('a', { below: 1n, descending: true, limit: 3 })).toMatchObject({
      KeyConditionExpression: 'pk = :pk AND rk < :hi',
      ExpressionAttributeValues: { ':pk': 'f#a', ':hi': 1n },
    });
  });
});
