/** Who gets a copy and when a read asks for a stamp (functions/model/reader-activity.ts): pure rules, at their edges. */
import { describe, expect, it } from 'vitest';
import {
  ASK_AGAIN_MAX_MS,
  askAgainMs,
  copyCutoffOf,
  mayAskAgain,
  missingFromRk,
  missingSince,
  stampBound,
  stampDue,
  tagMissingSince,
} from '../../functions/model/reader-activity.js';
import { rangeKeyOf } from '../../functions/model/range-key.js';

const NOW = 1_800_000_000_000_000_000n;
const WINDOW = 30n * 86_400_000_000_000n;

describe('reader activity', () => {
  it('says a feed may lack posts only once its head’s bound has passed', () => {
    expect(missingSince(undefined, NOW)).toBeUndefined();
    expect(missingSince(NOW, NOW)).toBeUndefined();
    expect(missingSince(NOW - 1n, NOW)).toBe(NOW - 1n);
  });

  it('merges exactly the posts made at or after the bound', () => {
    const bound = missingFromRk(NOW);
    expect(rangeKeyOf(NOW, 999_999_999_999n) < bound).toBe(true); // made at the bound: merged
    expect(rangeKeyOf(NOW - 1n, 0n) < bound).toBe(false); // made before: the stored feed has it
  });

  it('asks for a stamp when the bound is missing, passed or within half a window — with `off` only to remove a bound left from before', () => {
    expect(stampDue(undefined, NOW, WINDOW)).toBe(true);
    expect(stampDue(NOW + WINDOW / 2n, NOW, WINDOW)).toBe(false);
    expect(stampDue(NOW + WINDOW / 2n - 1n, NOW, WINDOW)).toBe(true);
    expect(stampDue(NOW - 1n, NOW, WINDOW)).toBe(true);
    expect(stampDue(undefined, NOW, undefined)).toBe(false);
    expect(stampDue(NOW + 1n, NOW, undefined)).toBe(true);
    expect(stampDue(NOW - 1n, NOW, undefined)).toBe(true);
  });

  it('stamps a window ahead, or removes the bound with `off`', () => {
    expect(stampBound(NOW, WINDOW)).toBe(NOW + WINDOW);
    expect(stampBound(NOW, undefined)).toBeUndefined();
  });

  it('asks a follower’s bound to reach the post’s own instant — nothing with `off`', () => {
    const rk = rangeKeyOf(NOW, 123n);
    expect(copyCutoffOf(rk, true)).toBe(NOW);
    expect(copyCutoffOf(rk, false)).toBeUndefined();
  });

  it('merges and writes back a push tag’s posts from the head’s bound, or from the follow if later', () => {
    expect(tagMissingSince(NOW, NOW - 5n)).toBe(NOW);
    expect(tagMissingSince(NOW, NOW + 5n)).toBe(NOW + 5n);
  });

  it('asks again for a stamp after a quarter of the window, never later than a minute (and a minute with `off`)', () => {
    const SECOND = 1_000_000_000n;
    expect(askAgainMs(15n * SECOND)).toBe(3_750);
    expect(askAgainMs(2n * 60n * SECOND)).toBe(30_000);
    expect(askAgainMs(4n * 60n * SECOND)).toBe(ASK_AGAIN_MAX_MS);
    expect(askAgainMs(WINDOW)).toBe(60_000);
    expect(askAgainMs(undefined)).toBe(60_000);
    expect(mayAskAgain(undefined, 0, 15n * SECOND)).toBe(true);
    expect(mayAskAgain(1_000, 4_749, 15n * SECOND)).toBe(false);
    expect(mayAskAgain(1_000, 4_750, 15n * SECOND)).toBe(true);
    expect(mayAskAgain(1_000, 60_999, WINDOW)).toBe(false);
    expect(mayAskAgain(1_000, 61_000, WINDOW)).toBe(true);
  });
});
