/**
 * Per-caller rate limits (RATE_LIMITS): a token bucket per user per class of route (each route
 * declares its class: lib/defs/routes.ts). A class's limit
 * `burst/period` lets a user make `burst` requests at once and `burst` more per `period` after
 * that (a refill of burst/period, continuously). Tokens with the tickfeed/admin scope (the
 * product's backend) are not limited. Unauthenticated routes have no caller to limit (the stage
 * throttle covers them).
 *
 * The defaults sit far above what a person does and well within what a script does in seconds:
 * 200 posts at once then one every 3 s; 100 follows, unfollows, mutes or blocks at once then one
 * every 6 s; 300 reactions, comments or marks then one a second; 600 reads then ten a second.
 *
 * @example parseRateLimits('posts=200/10m,reads=600/1m') // the other classes keep their defaults
 */
import { parseDuration } from './durations.js';

export const RATE_CLASSES = ['posts', 'follows', 'reactions', 'reads'] as const;
export type RateClass = (typeof RATE_CLASSES)[number];

export interface RateLimit {
  /** Requests at once (the bucket's size). */
  readonly burst: number;
  /** The time in which `burst` more are allowed (the refill rate is burst / period). */
  readonly periodMs: number;
}

export type RateLimits = Readonly<Record<RateClass, RateLimit>>;

export const DEFAULT_RATE_LIMITS = 'posts=200/10m,follows=100/10m,reactions=300/5m,reads=600/1m';

/** `off`, or `class=burst/period` pairs (comma-separated); a class left out keeps its default. */
export function parseRateLimits(raw: string): RateLimits | undefined {
  if (raw.trim().toLowerCase() === 'off') return undefined;
  return { ...(parsePairs(DEFAULT_RATE_LIMITS) as RateLimits), ...parsePairs(raw) };
}

function parsePairs(raw: string): Partial<Record<RateClass, RateLimit>> {
  const out: Partial<Record<RateClass, RateLimit>> = {};
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const m = /^([a-z]+)=(\d+)\/(.+)$/.exec(part);
    if (!m) throw new Error(`expected class=burst/period (e.g. posts=200/10m) or "off", got "${part}"`);
    const cls = m[1] as RateClass;
    if (!RATE_CLASSES.includes(cls)) throw new Error(`unknown class "${m[1]}" (one of ${RATE_CLASSES.join(', ')})`);
    const burst = Number(m[2]);
    if (!Number.isSafeInteger(burst) || burst < 1) throw new Error(`${cls}: the burst must be an integer ≥ 1, got "${m[2]}"`);
    const periodMs = parseDuration(m[3]!);
    if (periodMs === undefined) throw new Error(`${cls}: the period must be a duration, got "${m[3]}"`);
    out[cls] = { burst, periodMs };
  }
  return out;
}
