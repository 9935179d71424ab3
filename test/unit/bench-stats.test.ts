import { describe, expect, it } from 'vitest';
import { dollars, getReadUnits, itemSize, numberSize, plainItemSize, queryReadUnits, valueSize, writeUnits } from '../../bench/dynamo-cost.js';
import { median, percentile, pool } from '../../bench/stats.js';

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // unsorted on purpose

  it('picks the nearest-rank value', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
  });

  it('with few samples p99 is the maximum, and the median of an even count is the lower middle', () => {
    expect(percentile([3, 1, 2], 99)).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2);
  });

  it('is NaN for no samples and does not reorder its input', () => {
    expect(percentile([], 50)).toBeNaN();
    const input = [3, 1, 2];
    percentile(input, 50);
    expect(input).toEqual([3, 1, 2]);
  });
});

describe('pool', () => {
  it('runs every index once with at most `concurrency` in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    await pool(20, 3, async (i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 1));
      seen.push(i);
      inFlight--;
    });
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(peak).toBe(3);
  });
});

describe('DynamoDB item size rules', () => {
  it('numbers: one byte per two significant digits plus one, zeros trimmed', () => {
    expect(numberSize('7')).toBe(2);
    expect(numberSize('12')).toBe(2);
    expect(numberSize('123')).toBe(3);
    expect(numberSize('1000000')).toBe(2); // trailing zeros trimmed
    expect(numberSize('0.00012')).toBe(2); // leading zeros trimmed
    expect(numberSize('-5')).toBe(3);
    // A 31-digit range key: 16 + 1.
    expect(numberSize('9223370270000000000123456789012')).toBe(17);
  });

  it('strings count UTF-8 bytes, not characters', () => {
    expect(valueSize({ S: 'abc' })).toBe(3);
    expect(valueSize({ S: 'é' })).toBe(2);
    expect(valueSize({ S: '😀' })).toBe(4);
  });

  it('maps and lists: 3 bytes plus each element and one byte per element', () => {
    expect(valueSize({ M: {} })).toBe(3);
    expect(valueSize({ M: { ab: { S: 'xyz' } } })).toBe(3 + 2 + 3 + 1);
    expect(valueSize({ L: [{ BOOL: true }, { NULL: true }] })).toBe(3 + 2 + 2);
  });

  it('an item sums name lengths and value sizes', () => {
    expect(itemSize({ pk: { S: 'user-1' }, rk: { N: '12' }, verb: { S: 'post' } })).toBe(2 + 6 + 2 + 2 + 4 + 4);
    expect(plainItemSize({ pk: 'user-1', rk: 12, verb: 'post', skipped: undefined })).toBe(20);
  });
});

describe('capacity units', () => {
  it('writes: one unit per started KB, times the copies written (table + indexes)', () => {
    expect(writeUnits(1)).toBe(1);
    expect(writeUnits(1024)).toBe(1);
    expect(writeUnits(1025)).toBe(2);
    expect(writeUnits(300, 1)).toBe(2);
    expect(writeUnits(2049, 1)).toBe(6);
  });

  it('queries: sum the items, round up to 4 KB once, half for eventually consistent', () => {
    expect(queryReadUnits(Array(20).fill(200))).toBe(0.5); // 4,000 bytes
    expect(queryReadUnits(Array(21).fill(200))).toBe(1); // 4,200 bytes
    expect(queryReadUnits(Array(21).fill(200), true)).toBe(2);
    expect(queryReadUnits([])).toBe(0.5); // a Query that finds nothing still costs the minimum
  });

  it('gets round up each item on its own', () => {
    expect(getReadUnits(100)).toBe(0.5);
    expect(getReadUnits(4097, true)).toBe(2);
  });

  it('dollars at on-demand prices', () => {
    // A million writes of 1 WCU and no reads: $0.625; a million reads of 1 RCU: $0.125.
    expect(dollars(1e6, 1, 0)).toBeCloseTo(0.625, 10);
    expect(dollars(1e6, 0, 1)).toBeCloseTo(0.125, 10);
    expect(dollars(2e6, 201, 0.5)).toBeCloseTo(2 * (201 * 0.625 + 0.5 * 0.125), 10);
  });
});
