/**
 * Range keys (feed table `rk`, a DynamoDB Number), shared by timelines and home feeds:
 *   rk = (MAX − ticks) × 10^12 + discriminator
 * MAX = 2^63−1, ticks = ns since epoch of the SERVER's clock when the post was written (a client's
 * `time` never positions an item), discriminator = 12 random digits fixed at creation. Ascending
 * rk = newest first. Two posts with equal ticks differ in the low digits; every copy of one post
 * carries its rk. 31 digits, inside DynamoDB's 38-digit precision. `bigint` in code, a decimal
 * string on the wire. rk 0 (ticks = MAX, the year 2262) is never a post: home feeds keep their
 * head item there.
 */
import { randomInt } from 'node:crypto';

export const MAX_TICKS = 2n ** 63n - 1n;
const DISCRIMINATOR_DIGITS = 12;
const DISCRIMINATOR_SPAN = 10n ** BigInt(DISCRIMINATOR_DIGITS);
/** Largest possible range key (ticks = 0, discriminator all nines). */
export const MAX_RANGE_KEY = MAX_TICKS * DISCRIMINATOR_SPAN + DISCRIMINATOR_SPAN - 1n;

export function rangeKeyOf(ticks: bigint, discriminator: bigint): bigint {
  if (ticks < 0n || ticks > MAX_TICKS) throw new RangeError(`ticks out of range: ${ticks}`);
  if (discriminator < 0n || discriminator >= DISCRIMINATOR_SPAN) throw new RangeError('bad discriminator');
  return (MAX_TICKS - ticks) * DISCRIMINATOR_SPAN + discriminator;
}

export function ticksOfRangeKey(rk: bigint): bigint {
  return MAX_TICKS - rk / DISCRIMINATOR_SPAN;
}

/** A fresh discriminator: 12 random digits (randomInt's bound is 2^48 > 10^12). */
export function newDiscriminator(): bigint {
  return BigInt(randomInt(0, 10 ** DISCRIMINATOR_DIGITS));
}

/**
 * Exclusive upper bound on rk for "posted at or after `cutoffTicks`": every rk of those ticks
 * (any discriminator) is below it, every older one is at or above it.
 */
export function newerThanBound(cutoffTicks: bigint): bigint {
  const ticks = cutoffTicks <= 0n ? 0n : cutoffTicks > MAX_TICKS ? MAX_TICKS : cutoffTicks;
  return rangeKeyOf(ticks, 0n) + DISCRIMINATOR_SPAN;
}

/** Parse a range key from the wire (cursor, id part). Undefined if it is not a valid key. */
export function parseRangeKey(text: string): bigint | undefined {
  if (!/^\d{1,31}$/.test(text)) return undefined;
  const rk = BigInt(text);
  return rk <= MAX_RANGE_KEY ? rk : undefined;
}

/** A Number read with `wrapNumbers` (NumberValue), a bigint, or a decimal string → bigint. */
export const rkOf = (value: unknown): bigint => BigInt(String(value));
