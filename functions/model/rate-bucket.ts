/**
 * A caller's rate bucket for one class of route (lib/defs/rate-limits.ts), kept by GCRA (the
 * generic cell rate algorithm): one number, the bucket's "theoretical arrival time" `tat`, instead
 * of a token count and a refill time. A bucket at `tat` holds burst − (tat − now) / interval
 * tokens; taking n moves tat by n · interval, allowed while tat stays within burst · interval of
 * now. So a take is one conditional write, never a read (stores/limits-store.ts). Times are
 * integer microseconds.
 *
 * A Lambda instance does not write for every request: it has an allowance of its own (a tenth of
 * the limit, refilled at a tenth of the rate, counted in memory), and when that runs dry it leases
 * a few tokens at once from the shared bucket. A person's requests stay within the allowance (no
 * write at all); a script's cost one write per lease.
 */
import type { RateClass, RateLimit } from '../../lib/defs/rate-limits.js';

/** The bucket item's key in the limits table. */
export const rateBucketKey = (userId: string, cls: RateClass) => ({ pk: `rate#${userId}`, sk: cls });

export interface BucketSpec {
  /** Tokens the bucket holds when full. */
  readonly burst: number;
  /** Microseconds per token of refill. */
  readonly intervalUs: number;
}

export const bucketOf = (limit: RateLimit): BucketSpec => ({ burst: limit.burst, intervalUs: Math.max(1, Math.round((limit.periodMs * 1000) / limit.burst)) });

/** The instance's own allowance: a tenth of the bucket (at least one token), refilling at a tenth of the rate. */
export function allowanceOf(limit: RateLimit): BucketSpec {
  const bucket = bucketOf(limit);
  return { burst: Math.max(1, Math.floor(limit.burst / 10)), intervalUs: bucket.intervalUs * 10 };
}

/** Tokens an instance leases from the shared bucket at once: a tenth of it, 1 to 20. */
export const leaseOf = (limit: RateLimit): number => Math.min(20, Math.max(1, Math.floor(limit.burst / 10)));

/** What a user may do at once from a full bucket on one instance: its allowance and the shared bucket. */
export const burstPerInstance = (limit: RateLimit): number => allowanceOf(limit).burst + limit.burst;

/** The bucket's span: burst · interval. */
export const spanUs = (spec: BucketSpec): number => spec.burst * spec.intervalUs;

/** Whole tokens in a bucket at `tat` (absent: full) at `now`. */
export function tokensAt(tat: number | undefined, now: number, spec: BucketSpec): number {
  if (tat === undefined || tat <= now) return spec.burst;
  return Math.max(0, Math.floor((now + spanUs(spec) - tat) / spec.intervalUs));
}

/** Microseconds until a bucket at `tat` holds one token. */
export const waitForOneUs = (tat: number, now: number, spec: BucketSpec): number => Math.max(0, tat - (now + spanUs(spec) - spec.intervalUs));

/** When the bucket item may go (TTL, seconds): once full again it means nothing, and the latest it can be full is now + span. */
export const bucketExpiresAt = (now: number, spec: BucketSpec): number => Math.ceil((now + spanUs(spec)) / 1e6) + 60;
