import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  activityIdOf,
  MAX_RANGE_KEY,
  MAX_TICKS,
  MAX_USER_ID_BYTES,
  pageKeyCondition,
  parseActivityId,
  parseRangeKey,
  rangeKeyOf,
  ticksOfRangeKey,
} from '../../functions/core/keys.js';

const D = 10n ** 12n;

describe('range keys', () => {
  it('order newer ticks first (ascending rk = newest first)', () => {
    const older = rangeKeyOf(1_000n, 999_999_999_999n);
    const newer = rangeKeyOf(1_001n, 0n);
    expect(newer < older).toBe(true);
  });

  it('keep equal ticks with different discriminators apart, in a stable order', () => {
    const a = rangeKeyOf(42n, 1n);
    const b = rangeKeyOf(42n, 2n);
    expect(a).not.toBe(b);
    expect(a < b).toBe(true);
    expect(ticksOfRangeKey(a)).toBe(42n);
    expect(ticksOfRangeKey(b)).toBe(42n);
  });

  it('round-trip exactly at both ends of the tick range, through the wire format', () => {
    for (const ticks of [0n, 1n, 2n, MAX_TICKS - 1n, MAX_TICKS]) {
      for (const d of [0n, 1n, D - 1n]) {
        const rk = rangeKeyOf(ticks, d);
        const wire = rk.toString();
        expect(parseRangeKey(wire)).toBe(rk);
        expect(ticksOfRangeKey(BigInt(wire))).toBe(ticks);
        expect(BigInt(wire) % D).toBe(d);
      }
    }
    expect(rangeKeyOf(0n, D - 1n)).toBe(MAX_RANGE_KEY);
    expect(MAX_RANGE_KEY.toString()).toHaveLength(31); // inside DynamoDB's 38 digits
  });

  it('refuse ticks and discriminators outside their ranges', () => {
    expect(() => rangeKeyOf(-1n, 0n)).toThrow(RangeError);
    expect(() => rangeKeyOf(MAX_TICKS + 1n, 0n)).toThrow(RangeError);
    expect(() => rangeKeyOf(0n, D)).toThrow(RangeError);
  });

  it('parse only decimal keys up to the maximum', () => {
    expect(parseRangeKey((MAX_RANGE_KEY + 1n).toString())).toBeUndefined();
    for (const bad of ['', '-1', '1.5', '1e3', ' 1', '0x10', '1'.repeat(32)]) expect(parseRangeKey(bad)).toBeUndefined();
  });
});

describe('activity ids', () => {
  it('encode actor and rk and decode them back', () => {
    const rk = rangeKeyOf(1_763_800_000_000_000_000n, 123n);
    const id = activityIdOf('alice', rk);
    expect(id).toBe(`${rk}.YWxpY2U`);
    expect(parseActivityId(id)).toEqual({ actor: 'alice', rk });
  });

  it('round-trip any user id and any key (property)', () => {
    const actor = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
      .filter((s) => Buffer.byteLength(s) <= MAX_USER_ID_BYTES);
    const rk = fc.bigInt({ min: 0n, max: MAX_RANGE_KEY });
    fc.assert(
      fc.property(actor, rk, (a, k) => {
        const id = activityIdOf(a, k);
        expect(id).toMatch(/^\d+\.[A-Za-z0-9_-]+$/); // one URL path segment, no escaping needed
        expect(parseActivityId(id)).toEqual({ actor: a, rk: k });
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['no dot', '123'],
    ['empty rk', '.YWxpY2U'],
    ['empty actor', '123.'],
    ['leading zero', '0123.YWxpY2U'],
    ['rk too large', `${MAX_RANGE_KEY + 1n}.YWxpY2U`],
    ['padding', '123.YWxpY2U='],
    ['not base64url', '123.YWx+Y2U'],
    ['non-canonical trailing bits', '123.YWxpY2V'],
    ['invalid UTF-8', `123.${Buffer.from([0xff, 0xfe]).toString('base64url')}`],
    ['actor too long', `123.${Buffer.from('x'.repeat(MAX_USER_ID_BYTES + 1)).toString('base64url')}`],
  ])('reject a malformed id (%s)', (_name, id) => {
    expect(parseActivityId(id)).toBeUndefined();
  });
});

describe('page key conditions', () => {
  it('read newest first, strictly older for before, and upwards from the cursor for since', () => {
    expect(pageKeyCondition('pk', 'u', { kind: 'newest' })).toEqual({
      expression: '#p = :pk',
      names: { '#p': 'pk' },
      values: { ':pk': 'u' },
      scanIndexForward: true,
    });
    const before = pageKeyCondition('author', 'u', { kind: 'before', rk: 5n });
    expect(before).toMatchObject({ expression: '#p = :pk AND rk > :c', names: { '#p': 'author' }, scanIndexForward: true });
    expect(before.values[':c']).toBe(5n);
    const since = pageKeyCondition('pk', 'u', { kind: 'since', rk: 5n });
    expect(since).toMatchObject({ expression: '#p = :pk AND rk < :c', scanIndexForward: false });
  });
});
