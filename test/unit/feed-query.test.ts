import { describe, expect, it } from 'vitest';
import { pageOf, pageQuery } from '../../functions/core/feed/read.js';

const item = (rk: bigint) => ({ id: `${rk}.YQ`, actor: 'a', verb: 'p', time: 't', rk: { toString: () => String(rk) } });

describe('pageQuery', () => {
  it('builds the newest page of a home feed: one ascending Query for limit + 1', () => {
    expect(pageQuery('feed', { source: { kind: 'feed', owner: 'alice' }, limit: 20 })).toEqual({
      TableName: 'feed',
      KeyConditionExpression: '#owner = :owner',
      FilterExpression: 'attribute_not_exists(deletedAt)',
      // No `#rk` without a range condition: DynamoDB refuses unused names (a 500 otherwise).
      ExpressionAttributeNames: { '#owner': 'pk' },
      ExpressionAttributeValues: { ':owner': 'alice' },
      ScanIndexForward: true,
      Limit: 21,
    });
  });
  it('pages older with before (rk > cursor) on the byAuthor index', () => {
    const q = pageQuery('feed', { source: { kind: 'author', userId: 'bob' }, limit: 5, before: 100n });
    expect(q).toMatchObject({
      IndexName: 'byAuthor',
      KeyConditionExpression: '#owner = :owner AND #rk > :lo',
      ExpressionAttributeNames: { '#owner': 'author', '#rk': 'rk' },
      ExpressionAttributeValues: { ':owner': 'bob', ':lo': 100n },
      ScanIndexForward: true,
      Limit: 6,
    });
  });
  it('reads newer with since descending (closest to the cursor first), under the retention bound', () => {
    const q = pageQuery('feed', { source: { kind: 'feed', owner: 'a' }, limit: 3, since: 500n, bound: 400n });
    expect(q).toMatchObject({ KeyConditionExpression: '#owner = :owner AND #rk < :hi', ScanIndexForward: false, Limit: 4 });
    expect(q?.ExpressionAttributeValues?.[':hi']).toBe(400n);
  });
  it('combines before and the bound into BETWEEN, and sends nothing for an empty range', () => {
    const q = pageQuery('feed', { source: { kind: 'feed', owner: 'a' }, limit: 3, before: 10n, bound: 20n });
    expect(q).toMatchObject({ KeyConditionExpression: '#owner = :owner AND #rk BETWEEN :lo AND :hi' });
    expect(q?.ExpressionAttributeValues).toMatchObject({ ':lo': 11n, ':hi': 19n });
    expect(pageQuery('feed', { source: { kind: 'feed', owner: 'a' }, limit: 3, before: 10n, bound: 11n })).toBeUndefined();
  });
});

describe('pageOf', () => {
  const req = { source: { kind: 'feed', owner: 'a' } as const, limit: 2 };
  it('drops the extra item and points the cursor at the last kept one', () => {
    const page = pageOf(req, { Items: [item(1n), item(2n), item(3n)], LastEvaluatedKey: { rk: 3n } });
    expect(page.items.map((i) => i.rangeKey)).toEqual(['1', '2']);
    expect(page.lastRangeKey).toBe('2');
  });
  it('ends with null when fewer than limit + 1 came back and nothing was left unevaluated', () => {
    expect(pageOf(req, { Items: [item(1n), item(2n)] }).lastRangeKey).toBeNull();
  });
  it('resumes from the last evaluated key when the deleted-filter shortened the page', () => {
    const page = pageOf(req, { Items: [item(1n)], LastEvaluatedKey: { pk: 'a', rk: 3n } });
    expect(page).toMatchObject({ lastRangeKey: '3' });
  });
  it('reverses since pages to newest first, keeping the items closest to the cursor', () => {
    const page = pageOf({ ...req, since: 10n }, { Items: [item(9n), item(8n), item(7n)] });
    expect(page.items.map((i) => i.rangeKey)).toEqual(['8', '9']);
    expect(page.lastRangeKey).toBe('9');
  });
});

