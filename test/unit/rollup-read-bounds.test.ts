/** Bounded rollup reads: retained past, a day ahead, at most MAX_PARTITION_QUERIES Queries — before any Query. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../functions/model/domain-errors.js';
import { alignQuery, boundedReads, MAX_PARTITION_QUERIES, retainedFrom, type Granularity } from '../../functions/services/rollups/read-series.js';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const now = Date.parse('2026-11-23T10:17:31.000Z');
const q = (g: Granularity, from: number, to: number) => alignQuery('x.count', 'sum', g, from, to);

function refusal(fn: () => unknown): { field: string; message: string }[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return [...(error as ValidationError).errors];
  }
  throw new Error('expected a ValidationError');
}

describe('rollup reads: bounded work', () => {
  it('refuses a range starting before the retained past, accepts one from its interval on', () => {
    const ttl = 90 * DAY;
    const edge = retainedFrom(now, ttl, 'minute')!;
    expect(edge).toBe(Math.floor((now - ttl) / MIN) * MIN);
    expect(boundedReads(q('minute', edge, edge + HOUR), now, ttl, 1).length).toBeGreaterThan(0);
    expect(refusal(() => boundedReads(q('minute', edge - MIN, edge + HOUR), now, ttl, 1))).toEqual([
      expect.objectContaining({ field: 'query.from', message: expect.stringContaining('90d') }),
    ]);
    // day granularity: the day holding the retention edge may be asked for
    const dayEdge = retainedFrom(now, ttl, 'day')!;
    expect(dayEdge % DAY).toBe(0);
    expect(() => boundedReads(q('day', dayEdge, dayEdge + 30 * DAY), now, ttl, 1)).not.toThrow();
    expect(refusal(() => boundedReads(q('day', dayEdge - DAY, dayEdge + 30 * DAY), now, ttl, 1))[0]!.field).toBe('query.from');
  });

  it('has no past bound when rows never expire (ROLLUP_TTL off)', () => {
    expect(retainedFrom(now, undefined, 'hour')).toBeUndefined();
    expect(() => boundedReads(q('minute', Date.parse('2001-01-01T00:00:00Z'), Date.parse('2001-01-01T01:00:00Z')), now, undefined, 1)).not.toThrow();
  });

  it('refuses a range ending more than a day ahead of now', () => {
    expect(() => boundedReads(q('hour', now, now + DAY), now, 90 * DAY, 1)).not.toThrow();
    expect(refusal(() => boundedReads(q('hour', now, now + DAY + HOUR), now, 90 * DAY, 1))).toEqual([expect.objectContaining({ field: 'query.to' })]);
    // the probe that found it: 2200-01-01 .. 2203-12-10 by day (1,438 Queries before)
    const far = refusal(() => boundedReads(q('day', Date.parse('2200-01-01T00:00:00Z'), Date.parse('2203-12-10T00:00:00Z')), now, undefined, 1));
    expect(far.map((e) => e.field)).toContain('query.to');
  });

  it(`refuses a range needing more than ${MAX_PARTITION_QUERIES} Queries (days × partitions), naming the count`, () => {
    const ttl = undefined;
    const to = Math.floor(now / DAY) * DAY;
    expect(boundedReads(q('day', to - MAX_PARTITION_QUERIES * DAY, to), now, ttl, 1)).toHaveLength(MAX_PARTITION_QUERIES);
    const over = refusal(() => boundedReads(q('day', to - (MAX_PARTITION_QUERIES + 1) * DAY, to), now, ttl, 1));
    expect(over[0]).toEqual(expect.objectContaining({ field: 'query.from', message: expect.stringContaining(`${MAX_PARTITION_QUERIES + 1} Queries`) }));
    // partitions multiply: 26 days × 4 partitions = 104 > 100; 25 × 4 = 100 is fine
    expect(boundedReads(q('day', to - 25 * DAY, to), now, ttl, 4)).toHaveLength(100);
    expect(refusal(() => boundedReads(q('day', to - 26 * DAY, to), now, ttl, 4))[0]!.message).toContain('26 UTC days × 4 partition(s) = 104 Queries');
  });

  it('serves the whole default retention (90 days) by day in one read with one partition', () => {
    const ttl = 90 * DAY;
    const reads = boundedReads(q('day', retainedFrom(now, ttl, 'day')!, now + HOUR), now, ttl, 1);
    expect(reads.length).toBeLessThanOrEqual(MAX_PARTITION_QUERIES);
    expect(reads.length).toBeGreaterThanOrEqual(90);
  });
});
