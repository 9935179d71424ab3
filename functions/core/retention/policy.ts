/**
 * Feed retention policies (seeds 000/001), as deployment config read once at cold start:
 *   by count — FEED_MAX_ITEMS: keep the N newest (storage trimmed in batches of `margin`);
 *   by span  — FEED_MAX_SPAN: keep items within T of the feed's newest item;
 *   by age   — FEED_TTL: items expire T after their activity time (DynamoDB TTL + read filter).
 * The same policy applies to authors' originals, fan-out copies and backfill copies alike.
 */
import { readConfig } from '../config.js';

export interface RetentionPolicy {
  /** Keep at most this many items; undefined = unbounded (no per-write counter). */
  readonly maxItems?: number;
  /** Storage may exceed maxItems by up to this many items before a trim runs. */
  readonly trimMargin: number;
  readonly maxSpanMs?: number;
  readonly ttlMs?: number;
}

/** The trim runs when a feed holds more than N + margin items: margin = max(10, N/10). */
export function trimMarginFor(maxItems: number): number {
  return Math.max(10, Math.floor(maxItems / 10));
}

export function policyFromEnv(env: NodeJS.ProcessEnv = process.env): RetentionPolicy {
  const maxItems = readConfig('FEED_MAX_ITEMS', env);
  return {
    maxItems,
    trimMargin: maxItems === undefined ? 0 : trimMarginFor(maxItems),
    maxSpanMs: readConfig('FEED_MAX_SPAN', env),
    ttlMs: readConfig('FEED_TTL', env),
  };
}
