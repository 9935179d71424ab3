/**
 * Time-based retention as range-key bounds. Because rk orders items by their activity time and
 * an item's expiry is derived from that same time, "not expired" and "within the span" are
 * contiguous key ranges: reads apply them in the key condition (free: nothing is read and then
 * filtered away), and trims delete everything past them.
 */
import { rangeKeyOf, ticksOfRangeKey } from '../keys.js';
import type { RetentionPolicy } from './policy.js';

const NS_PER_MS = 1_000_000n;

/** The TTL attribute value (epoch seconds) for an item of activity time `ticks`, or undefined. */
export function expiresAtFor(ticks: bigint, policy: RetentionPolicy): number | undefined {
  if (policy.ttlMs === undefined) return undefined;
  // Rounded up: reads hide the item (ns precision) no later than DynamoDB's TTL may delete it.
  const expiryNs = ticks + BigInt(policy.ttlMs) * NS_PER_MS;
  return Number((expiryNs + 999_999_999n) / 1_000_000_000n);
}

/**
 * Exclusive upper bound on rk for items still alive at `nowTicks` by age: an item lives while
 * ticks + ttl > now, i.e. ticks > now − ttl, i.e. rk < rangeKeyOf(now − ttl, 0).
 * Undefined when there is no TTL.
 */
export function ageBound(nowTicks: bigint, policy: RetentionPolicy): bigint | undefined {
  if (policy.ttlMs === undefined) return undefined;
  return cutoffBound(nowTicks - BigInt(policy.ttlMs) * NS_PER_MS + 1n);
}

/**
 * Exclusive upper bound on rk for items within the span of the feed's newest item (`newestRk`):
 * an item stays while its ticks ≥ newest ticks − span.
 */
export function spanBound(newestRk: bigint, policy: RetentionPolicy): bigint | undefined {
  if (policy.maxSpanMs === undefined) return undefined;
  return cutoffBound(ticksOfRangeKey(newestRk) - BigInt(policy.maxSpanMs) * NS_PER_MS);
}

/** Items with ticks ≥ cutoff have rk ≤ rangeKeyOf(cutoff, max discriminator) < this bound. */
function cutoffBound(cutoff: bigint): bigint {
  let cutoffTicks = cutoff;
  if (cutoffTicks <= 0n) cutoffTicks = 0n; // nothing is that old
  return rangeKeyOf(cutoffTicks, 0n) + 10n ** 12n;
}

/** The tightest of several exclusive upper bounds (undefined = unbounded). */
export function tightest(...bounds: (bigint | undefined)[]): bigint | undefined {
  let best: bigint | undefined;
  for (const b of bounds) if (b !== undefined && (best === undefined || b < best)) best = b;
  return best;
}
