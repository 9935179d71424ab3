/**
 * Per-caller rate limits (RATE_LIMITS, lib/defs/rate-limits.ts): `admit(user, class)` lets a
 * request through or throws RateLimitedError (429 with Retry-After) before anything is done.
 *
 * Cheap by construction (model/rate-bucket.ts): each Lambda instance first spends an allowance of
 * its own, counted in memory (no DynamoDB call at all — a person's requests stay within it); when
 * it runs dry it leases up to 20 tokens at once from the caller's shared bucket with one
 * conditional UpdateItem (1 write unit, no read). So a script pays one write per lease, and what
 * one user gets across instances is the shared bucket plus a tenth of it per instance they reach.
 * A refusal costs nothing once the instance has seen the bucket empty (it only fills with time).
 * The clock is injectable (tests).
 */
import { setting } from '../../lib/defs/config.js';
import type { RateClass, RateLimit, RateLimits } from '../../lib/defs/rate-limits.js';
import { RateLimitedError } from '../model/domain-errors.js';
import { allowanceOf, bucketOf, type BucketSpec, leaseOf, tokensAt, waitForOneUs } from '../model/rate-bucket.js';
import { perInstance } from '../platform/instance-scope.js';
import { AGAIN, RETRY, RetriesExhaustedError, retrying } from '../platform/retry.js';
import { takeFromFull, takeFromPartial } from '../stores/limits-store.js';

const limits = (): RateLimits | undefined => setting('RATE_LIMITS');

let clockMs: () => number = Date.now;
/** Tests: a clock of their own (milliseconds); returns the function that restores the real one. */
export function setRateLimitClock(now: () => number): () => void {
  clockMs = now;
  return () => {
    clockMs = Date.now;
  };
}

/** What this instance holds for one user and class. */
interface Held {
  /** Allowance tokens (fractional: refilled continuously), as of `at`. */
  free: number;
  at: number;
  /** Tokens leased from the shared bucket and not spent yet. */
  leased: number;
  /** The shared bucket's tat as last seen (picks which conditional write to try first). */
  tat?: number;
}

/** Users × classes held per instance; the least recently used goes first (at most ~1 MB). */
const MAX_HELD = 10_000;
const heldBy = perInstance(() => new Map<string, Held>());

/** Tests: forget what the calling instance holds (a cold start). */
export const forgetHeldTokens = (): void => heldBy().clear();

function holding(key: string, allowance: BucketSpec, now: number): Held {
  const held = heldBy();
  let h = held.get(key);
  if (h) {
    held.delete(key); // re-inserted below: the Map's order is recency
    h.free = Math.min(allowance.burst, h.free + (now - h.at) / allowance.intervalUs);
    h.at = now;
  } else {
    h = { free: allowance.burst, at: now, leased: 0 };
    if (held.size >= MAX_HELD) held.delete(held.keys().next().value!);
  }
  held.set(key, h);
  return h;
}

/**
 * Let `userId` make one more `cls` request, or throw RateLimitedError (nothing was done). `with`
 * replaces RATE_LIMITS (the bench measures the limiter on a stack that has it off).
 */
export async function admit(userId: string, cls: RateClass, with_: RateLimits | undefined = limits()): Promise<void> {
  const limit = with_?.[cls];
  if (!limit) return;
  const now = Math.round(clockMs() * 1000);
  const allowance = allowanceOf(limit);
  const h = holding(`${cls}\n${userId}`, allowance, now);
  if (h.free >= 1) {
    h.free -= 1;
    return;
  }
  if (h.leased >= 1) {
    h.leased -= 1;
    return;
  }
  // The shared bucket only moves forward (other instances take, nothing gives back): if it held no
  // token when last seen, it holds none now either — refused without a write.
  const spec = bucketOf(limit);
  const lease =
    h.tat !== undefined && tokensAt(h.tat, now, spec) < 1
      ? { granted: 0, tat: h.tat, waitUs: waitForOneUs(h.tat, now, spec) }
      : await leaseTokens(userId, cls, limit, now, h.tat);
  h.tat = lease.tat;
  if (lease.granted > 0) {
    h.leased = lease.granted - 1;
    return;
  }
  const ownWaitUs = (1 - h.free) * allowance.intervalUs;
  const waitSeconds = Math.max(1, Math.ceil(Math.min(lease.waitUs, ownWaitUs) / 1e6));
  throw new RateLimitedError(
    `Too many ${cls} requests: at most ${limit.burst} at once, then ${limit.burst} per ${limit.periodMs / 1000} s. Retry after ${waitSeconds} s.`,
    waitSeconds,
  );
}

/**
 * Lease up to leaseOf(limit) tokens from the shared bucket: granted (maybe fewer, if that is what
 * it holds), or none and how long until one. Each failed condition returns the bucket as it
 * stands, so the next try needs no wait (a race with the user's own requests on other instances).
 */
async function leaseTokens(
  userId: string,
  cls: RateClass,
  limit: RateLimit,
  now: number,
  tatSeen: number | undefined,
): Promise<{ granted: number; tat?: number; waitUs: number }> {
  const spec = bucketOf(limit);
  let n = leaseOf(limit);
  let full = tatSeen === undefined || tatSeen < now;
  try {
    return await retrying(`rate bucket ${cls} of ${userId}`, RETRY.lease, async () => {
      const out = full ? await takeFromFull(userId, cls, n, now, spec) : await takeFromPartial(userId, cls, n, now, spec);
      if (out.ok) return { granted: n, tat: out.tat, waitUs: 0 };
      full = out.tat === undefined || out.tat < now;
      if (full) return AGAIN;
      const left = tokensAt(out.tat, now, spec);
      if (left < 1) return { granted: 0, tat: out.tat, waitUs: waitForOneUs(out.tat!, now, spec) };
      n = Math.min(n, left);
      return AGAIN;
    });
  } catch (error) {
    // The user's own requests kept taking the bucket from under this one: treat it as used up.
    if (error instanceof RetriesExhaustedError) return { granted: 0, tat: tatSeen, waitUs: 1e6 };
    throw error;
  }
}
