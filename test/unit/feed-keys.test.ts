import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  activityIdOf,
  MAX_RANGE_KEY,
  MAX_TICKS,
  parseActivityId,
  parseRangeKey,
  rangeKeyOf,
  ticksOfRangeKey,
} from '../../functions/core/keys.js';
import { isoFromTicks, ticksFromIso } from '../../functions/core/ticks.js';

const ticks = fc.bigInt({ min: 0n, max: MAX_TICKS });
const disc = fc.bigInt({ min: 0n, max: 10n ** 12n - 1n });

describe('activity ids', () => {
  it('round-trip any actor and range key', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' }), ticks, disc, (actor, t, d) => {
        const rk = rangeKeyOf(t, d);
        expect(parseActivityId(activityIdOf(actor, rk))).toEqual({ actor, rk });
      }),
    );
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
});
