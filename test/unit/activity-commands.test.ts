import { describe, expect, it } from 'vitest';
import * as cmd from '../../functions/core/activities/commands.js';
import { itemSizeBytes, originalItem, viewOf } from '../../functions/core/activities/item.js';
import { parseActivityId, ticksOfRangeKey } from '../../functions/core/keys.js';
import { ticksFromIso } from '../../functions/core/ticks.js';

const t = { feed: 'feed-t', graph: 'graph-t' };

describe('original items', () => {
  const body = {
    verb: 'game_finished',
    object: 'game:8f14e45f-ceea-467f-a0e6-3f2b1c1d2e3f',
    content: 'Finished a ranked match on hard difficulty — new personal best!',
    attributes: { score: 18_250, level: 'hard', won: true, duration_s: 742 },
    foreignId: 'match-8f14e45f',
    time: '2026-11-22T18:30:01.123456789Z',
  };

  it('carry author only as the original, and an id that names pk and rk', () => {
    const item = originalItem('6f1c2b7e-4d3a-4c8e-9b1f-2a3c4d5e6f70', body);
    expect(item.pk).toBe(item.actor);
    expect(item.author).toBe(item.actor);
    expect(parseActivityId(item.id)).toEqual({ actor: item.pk, rk: item.rk });
    expect(ticksOfRangeKey(item.rk)).toBe(ticksFromIso(body.time));
    expect(item.time).toBe(body.time);
  });

  it('fit a typical post in one write unit (≤ 1 KB)', () => {
    const size = itemSizeBytes(originalItem('6f1c2b7e-4d3a-4c8e-9b1f-2a3c4d5e6f70', body));
    expect(size).toBeGreaterThan(200);
    expect(size).toBeLessThanOrEqual(1024);
  });

  it('show absent optional fields as null and NumberValue attributes as numbers', () => {
    const item = originalItem('a', { verb: 'x' });
    const stored = { ...item, rk: { toString: () => String(item.rk) }, attributes: { n: { toString: () => '1.5' }, s: 's' } };
    expect(viewOf(stored)).toEqual({
      id: item.id,
      actor: 'a',
      verb: 'x',
      object: null,
      content: null,
      attributes: { n: 1.5, s: 's' },
      foreignId: null,
      time: item.time,
      rangeKey: String(item.rk),
    });
  });
});

describe('built requests', () => {
  const item = originalItem('alice', { verb: 'x', foreignId: 'f1' });

  it('post without foreignId: one PutItem that never overwrites', () => {
    expect(cmd.putOriginal(t, item)).toMatchObject({ TableName: 'feed-t', Item: item, ConditionExpression: 'attribute_not_exists(pk)' });
  });

  it('post with foreignId: original and marker in one transaction, both only if absent', () => {
    const tx = cmd.putOriginalWithMarker(t, item, 'f1').TransactItems!;
    expect(tx).toHaveLength(2);
    expect(tx[0]!.Put).toMatchObject({ TableName: 'feed-t', ConditionExpression: 'attribute_not_exists(pk)' });
    expect(tx[1]!.Put).toMatchObject({
      TableName: 'graph-t',
      Item: { pk: 'foreign#alice', sk: 'f1', rk: item.rk },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  it('pages ask for one probe item beyond the limit', () => {
    const q = cmd.pageQuery('feed-t', { kind: 'feed', owner: 'bob' }, { kind: 'before', rk: 7n }, 20);
    expect(q).toMatchObject({ TableName: 'feed-t', Limit: 21, ScanIndexForward: true, KeyConditionExpression: '#p = :pk AND rk > :c' });
    expect(q.IndexName).toBeUndefined();
  });

  it("an author's page reads the sparse byAuthor index; since reads upwards", () => {
    const q = cmd.pageQuery('feed-t', { kind: 'author', userId: 'bob' }, { kind: 'since', rk: 7n }, 5);
    expect(q).toMatchObject({ IndexName: 'byAuthor', ExpressionAttributeNames: { '#p': 'author' }, ScanIndexForward: false, Limit: 6 });
  });
});
