/**
 * Retention policies, as deployment config read once at cold start.
 *
 * Home feeds (copies only — what a user is shown):
 *   by count — FEED_MAX_ITEMS = N: a feed always keeps its N newest copies; a trim runs once
 *              N + N/4 were written since the last one and cuts it back to N (see trim.ts for
 *              why that overshoot is what makes a trim's reads proportional to what it deletes);
 *   by span  — FEED_MAX_SPAN: trims also drop copies older than the newest copy minus the span;
 *   by age   — FEED_TTL: copies expire that long after they were posted (TTL + a read bound).
 * Timelines (originals — what a user owns): kept until deleted, unless TIMELINE_TTL is set.
 * Nothing else deletes anything: a policy only ever touches the items it owns.
 */
import { readConfig, setting } from '../../../lib/defs/config.js';

export interface HomeFeedPolicy {
  /** Keep at least the N newest; undefined = no count limit. */
  readonly maxItems?: number;
  /** How many more than N copies written since the last trim make the next one delete. */
  readonly margin: number;
  /** Chance that a copy written to a feed starts a trim attempt (decided from the copy's key; FEED_TRIM_CHANCE). */
  readonly attemptChance: number;
  readonly maxSpanMs?: number;
  readonly ttlMs?: number;
}

export interface TimelinePolicy {
  readonly ttlMs?: number;
}

/**
 * margin = max(1, ⌈N/4⌉); a trim is attempted about once per N copies written (Stream-Framework's
 * trim chance, 1/max_length): an attempt that finds too few copies to trim reads what was written
 * since the last trim, so rarer attempts keep the reads of all attempts under 2× what they delete.
 * `trimChance` (FEED_TRIM_CHANCE) replaces that derived chance; 1 makes every copy write attempt
 * a trim, so whether a trim runs no longer depends on the keys drawn (what tests need).
 */
export function homeFeedPolicyOf(maxItems: number | undefined, maxSpanMs?: number, ttlMs?: number, trimChance?: number): HomeFeedPolicy {
  const trimming = maxItems !== undefined || maxSpanMs !== undefined;
  const derived = maxItems === undefined ? 1 / 16 : Math.min(1, 1 / maxItems);
  return {
    maxItems,
    margin: maxItems === undefined ? 0 : Math.max(1, Math.ceil(maxItems / 4)),
    attemptChance: !trimming ? 0 : (trimChance ?? derived),
    maxSpanMs,
    ttlMs,
  };
}

export function homeFeedPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): HomeFeedPolicy {
  return homeFeedPolicyOf(
    readConfig('FEED_MAX_ITEMS', env),
    readConfig('FEED_MAX_SPAN', env),
    readConfig('FEED_TTL', env),
    readConfig('FEED_TRIM_CHANCE', env),
  );
}

export function timelinePolicyFromEnv(env: NodeJS.ProcessEnv = process.env): TimelinePolicy {
  return { ttlMs: readConfig('TIMELINE_TTL', env) };
}

let deployed: HomeFeedPolicy | undefined;
/** This deployment's home-feed policy, from its settings (config.ts `setting`); derived once, as they are read once. */
export const homeFeedPolicy = (): HomeFeedPolicy =>
  (deployed ??= homeFeedPolicyOf(setting('FEED_MAX_ITEMS'), setting('FEED_MAX_SPAN'), setting('FEED_TTL'), setting('FEED_TRIM_CHANCE')));

/** This deployment's timeline policy, from its settings. */
export const timelinePolicy = (): TimelinePolicy => ({ ttlMs: setting('TIMELINE_TTL') });
