import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activityIdOf, parseActivityId } from '../../functions/model/activity-id.js';
import {
  MAX_RANGE_KEY,
  MAX_TICKS,
  newDiscriminator,
  newerThanBound,
  parseRangeKey,
  rangeKeyOf,
  rkOf,
  ticksOfRangeKey,
} from '../../functions/model/range-key.js';
import { MAX_USER_ID_BYTES } from '../../functions/model/user-id.js';
import { isoFromTicks, ticksFromIso } from '../../functions/platform/clock.js';

const ticks = fc.bigInt({ min: 0n, max: MAX_TICKS });
const disc = fc.bigInt({ min: 0n, max: 10n ** 12n - 1n });

describe('activity ids', () => {
  it('round-trip any actor and range key (but rk 0, the home-feed head, which is never a post)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' }), ticks, disc, (actor, t, d) => {
        const rk = rangeKeyOf(t, d);
        fc.pre(rk !== 0n && Buffer.byteLength(actor, 'utf8') <= MAX_USER_ID_BYTES);
        expect(parseActivityId(activityIdOf(actor, rk))).toEqual({ actor, rk });
      }),
    );
  });
  it('name the original in its author’s timeline: rk first, then the actor', () => {
    const rk = rangeKeyOf(1_795_372_201_123_456_789n, 42n);
    expect(activityIdOf('alice', rk)).toBe(`${rk}.YWxpY2U`);
    expect(parseActivityId(activityIdOf('a.b#c', rk))).toEqual({ actor: 'a.b#c', rk });
  });
  it('reject rk 0 (the home-feed head) and actors longer than a key may carry', () => {
    expect(parseActivityId(activityIdOf('alice', 0n))).toBeUndefined();
    expect(parseActivityId('0.YWxpY2U')).toBeUndefined();
    expect(parseActivityId(activityIdOf('x'.repeat(MAX_USER_ID_BYTES), 7n))).toEqual({ actor: 'x'.repeat(MAX_USER_ID_BYTES), rk: 7n });
    expect(parseActivityId(activityIdOf('x'.repeat(MAX_USER_ID_BYTES + 1), 7n))).toBeUndefined();
  });
  it('reject non-canonical or malformed ids', () => {
    const good = activityIdOf('alice', 42n);
    expect(good).toBe('42.YWxpY2U');
    for (const bad of ['', '42', '42.', '.YWxpY2U', '042.YWxpY2U', '42.YWxpY2U=', '42.YWxpY2V', '42.YWx+Y2U', '-1.YQ', `${MAX_RANGE_KEY + 1n}.YQ`, '42.__8']) {
      expect(parseActivityId(bad), bad).toBeUndefined();
    }
  });
  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (s) => void parseActivityId(s)));
  });
});

describe('range keys', () => {
  it('order newest first; equal ticks order by discriminator; ticks survive', () => {
    fc.assert(
      fc.property(ticks, ticks, disc, disc, (t1, t2, d1, d2) => {
        const a = rangeKeyOf(t1, d1);
        const b = rangeKeyOf(t2, d2);
        if (t1 > t2) expect(a < b).toBe(true);
        if (t1 === t2) expect(a < b).toBe(d1 < d2);
        expect(ticksOfRangeKey(a)).toBe(t1);
        expect(parseRangeKey(a.toString())).toBe(a);
      }),
    );
  });
  it('is exact at the edges of the key space (near 2^63−1)', () => {
    expect(rangeKeyOf(0n, 10n ** 12n - 1n)).toBe(MAX_RANGE_KEY);
    expect(rangeKeyOf(1n, 0n)).toBe((2n ** 63n - 2n) * 10n ** 12n);
    expect(rangeKeyOf(1n, 0n).toString()).toBe('9223372036854775806000000000000');
    expect(rangeKeyOf(MAX_TICKS, 0n)).toBe(0n);
    expect(parseRangeKey(MAX_RANGE_KEY.toString())).toBe(MAX_RANGE_KEY);
    expect(parseRangeKey((MAX_RANGE_KEY + 1n).toString())).toBeUndefined();
    expect(ticksFromIso('1970-01-01T00:00:00.000000001Z')).toBe(1n);
    expect(isoFromTicks(1n)).toBe('1970-01-01T00:00:00.000000001Z');
    expect(isoFromTicks(ticksFromIso('2262-04-11T23:47:16.854775807Z')!)).toBe('2262-04-11T23:47:16.854775807Z');
    expect(ticksFromIso('2262-04-11T23:47:16.854775807Z')).toBe(MAX_TICKS);
  });
  it('refuses ticks and discriminators outside the key space', () => {
    expect(() => rangeKeyOf(-1n, 0n)).toThrow(RangeError);
    expect(() => rangeKeyOf(MAX_TICKS + 1n, 0n)).toThrow(RangeError);
    expect(() => rangeKeyOf(0n, 10n ** 12n)).toThrow(RangeError);
    expect(() => rangeKeyOf(0n, -1n)).toThrow(RangeError);
  });
  it('draw 12-digit discriminators', () => {
    for (let i = 0; i < 1000; i++) {
      const d = newDiscriminator();
      expect(d >= 0n && d < 10n ** 12n).toBe(true);
    }
  });
  it('read back from a wire number, a NumberValue-like object or a bigint', () => {
    const rk = rangeKeyOf(1_795_372_201_123_456_789n, 999_999_999_999n);
    expect(rkOf(rk.toString())).toBe(rk);
    expect(rkOf({ toString: () => rk.toString() })).toBe(rk);
    expect(rkOf(rk)).toBe(rk);
  });
});

describe('newerThanBound', () => {
  it('separates posts at or after the cutoff (below it) from older ones (at or above it), at any discriminator', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_TICKS - 1n }), disc, (cutoff, d) => {
        const bound = newerThanBound(cutoff);
        expect(rangeKeyOf(cutoff, d) < bound).toBe(true);
        expect(rangeKeyOf(cutoff - 1n, d) >= bound).toBe(true);
      }),
    );
  });
  it('clamps cutoffs outside the key space', () => {
    expect(newerThanBound(-5n)).toBe(newerThanBound(0n));
    expect(newerThanBound(MAX_TICKS + 5n)).toBe(newerThanBound(MAX_TICKS));
    expect(newerThanBound(0n)).toBe(MAX_RANGE_KEY + 1n); // everything is newer than the epoch
  });
});
