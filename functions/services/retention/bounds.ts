/**
 * Time-based retention as range-key bounds. rk orders items by the server's clock at posting and
 * an item's expiry is derived from that same instant, so "not expired" and "within the span" are
 * contiguous key ranges: reads put them in the key condition (nothing is read and filtered away),
 * and trims delete what lies past them.
 */
import { newerThanBound, ticksOfRangeKey } from '../../model/range-key.js';

const NS_PER_MS = 1_000_000n;

/** The TTL attribute (epoch seconds) of an item posted at `ticks` under a `ttlMs` policy. */
export function expiresAtFor(ticks: bigint, ttlMs: number | undefined): number | undefined {
  if (ttlMs === undefined) return undefined;
  // Rounded up: reads hide the item (ns precision) no later than DynamoDB's TTL may delete it.
  const expiryNs = ticks + BigInt(ttlMs) * NS_PER_MS;
  return Number((expiryNs + 999_999_999n) / 1_000_000_000n);
}

/**
 * Exclusive upper bound on rk for items still alive at `nowTicks`: an item lives while
 * ticks + ttl > now, i.e. ticks ≥ now − ttl + 1. Undefined when there is no TTL.
 */
export function ageBound(nowTicks: bigint, ttlMs: number | undefined): bigint | undefined {
  if (ttlMs === undefined) return undefined;
  return newerThanBound(nowTicks - BigInt(ttlMs) * NS_PER_MS + 1n);
}

/** Exclusive upper bound on rk for items within `spanMs` of the newest item (`newestRk`). */
export function spanBound(newestRk: bigint, spanMs: number | undefined): bigint | undefined {
  if (spanMs === undefined) return undefined;
  return newerThanBound(ticksOfRangeKey(newestRk) - BigInt(spanMs) * NS_PER_MS);
}
