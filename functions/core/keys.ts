/**
 * The key model: the one module that builds partition/sort keys and names access patterns.
 * Handlers and stores call these; nobody else concatenates key strings.
 *
 * Range keys (feed table `rk`, a DynamoDB Number):
 *   rk = (MAX − ticks) × 10^12 + discriminator
 * MAX = 2^63−1, ticks = ns since epoch, discriminator = 12 random digits fixed when the activity
 * is created. Ascending rk = newest first. Two activities with equal ticks differ in the low
 * digits and both survive (in a stable order); every copy of one activity carries the same rk.
 * 19 + 12 = 31 digits, inside DynamoDB's 38-digit Number precision. Always `bigint` in code and
 * a decimal string on the wire.
 */
import { randomInt } from 'node:crypto';

export const MAX_TICKS = 2n ** 63n - 1n;
export const DISCRIMINATOR_DIGITS = 12;
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

/** Parse a range key from the wire (cursor, id part). Undefined if it is not a valid key. */
export function parseRangeKey(text: string): bigint | undefined {
  if (!/^\d{1,31}$/.test(text)) return undefined;
  const rk = BigInt(text);
  return rk <= MAX_RANGE_KEY ? rk : undefined;
}

// ---- feed table ---------------------------------------------------------------------------

/** A feed item: pk = feed owner's user id, rk = the activity's range key. */
export const feedItemKey = (owner: string, rk: bigint) => ({ pk: owner, rk });

// ---- graph table --------------------------------------------------------------------------

/** A user's profile counters (followers/following). */
export const profileKey = (userId: string) => ({ pk: `user#${userId}`, sk: 'profile' });

/** Marker that makes `foreignId` idempotent per actor; holds the original activity's rk. */
export const foreignIdKey = (actor: string, foreignId: string) => ({ pk: `foreign#${actor}`, sk: foreignId });

/** Per-feed retention state: the maintained item count (only when retention by count is on). */
export const feedMetaKey = (owner: string) => ({ pk: `feed#${owner}`, sk: 'meta' });
