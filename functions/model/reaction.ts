/**
 * Reactions and the per-activity counters.
 *
 *   reaction item   graph `r#<activityId>` / `<userId>`: `kinds`, the string set of the user's
 *                   reactions to the activity — one item per (user, activity), so `own` for a page
 *                   is one BatchGet, and an activity's reactions are one Query (for its purge).
 *   counter item    feed `x#<activityId>` / rk 0: `n_<kind>` per kind (`n_comment` counts the
 *                   comments), `ev` (the add that made this version, below) and `closed` (set when
 *                   the activity is deleted: adds after that fail their condition).
 *
 * A reaction or comment changes both in one transaction, so counts stay exact under any
 * concurrency, and a repeat changes nothing (its condition fails). The counter lives in the
 * feed table because that table's stream is the outbox: every add writes `ev`, so its stream
 * record carries who did what, and the notification for it cannot be lost.
 */
import { feedPartitionPrefix } from '../../lib/defs/key-prefixes.js';
import { activityIdOf, parseActivityId } from './activity-id.js';

/** `like`, `love`, `celebrate`…: 1–32 of [a-z0-9_]. */
export const REACTION_KIND = /^[a-z0-9_]{1,32}$/;
/** The counter key comments are counted under (not a reaction kind a client may PUT). */
export const COMMENT_KIND = 'comment';

const REACTION_PREFIX = 'r#';
export const reactionPartition = (activityId: string) => `${REACTION_PREFIX}${activityId}`;
export const reactionKey = (activityId: string, userId: string) => ({ pk: reactionPartition(activityId), sk: userId });

const COUNTER_PREFIX = feedPartitionPrefix.counter;
export const counterKey = (activityId: string) => ({ pk: `${COUNTER_PREFIX}${activityId}`, rk: 0n });
/** The activity a counter item's key names, or undefined for any other feed-table key. */
export function activityOfCounterPk(pk: string | undefined): { id: string; author: string } | undefined {
  if (!pk?.startsWith(COUNTER_PREFIX)) return undefined;
  const id = pk.slice(COUNTER_PREFIX.length);
  const key = parseActivityId(id);
  return key ? { id: activityIdOf(key.actor, key.rk), author: key.actor } : undefined;
}
/** The activity id of a counter item or a reaction item (as read). */
export const activityOfCounterItem = (item: Record<string, unknown>) => String(item.pk).slice(COUNTER_PREFIX.length);
export const activityOfReactionItem = (item: Record<string, unknown>) => String(item.pk).slice(REACTION_PREFIX.length);

/**
 * What one add did, as stored in the counter's `ev` (a string, so a stream filter can test it):
 * the actor, the kind (`comment` for a comment), when (server ticks) and, for a comment, its id.
 */
export interface CounterEvent {
  readonly actor: string;
  readonly kind: string;
  readonly ticks: bigint;
  readonly commentId?: string;
}

export const encodeCounterEvent = (e: CounterEvent): string =>
  JSON.stringify({ a: e.actor, k: e.kind, t: e.ticks.toString(), ...(e.commentId ? { c: e.commentId } : {}) });

export function parseCounterEvent(text: string | undefined): CounterEvent | undefined {
  if (!text) return undefined;
  try {
    const raw = JSON.parse(text) as { a?: unknown; k?: unknown; t?: unknown; c?: unknown };
    if (typeof raw.a !== 'string' || typeof raw.k !== 'string' || typeof raw.t !== 'string' || !/^\d{1,20}$/.test(raw.t)) return undefined;
    return { actor: raw.a, kind: raw.k, ticks: BigInt(raw.t), ...(typeof raw.c === 'string' ? { commentId: raw.c } : {}) };
  } catch {
    return undefined;
  }
}

/** The wire summary every activity read can carry. */
export interface ReactionSummary {
  counts: Record<string, number>;
  own: string[];
}

/** Counter attribute of a kind: flat (`n_like`), because ADD cannot create a nested map path. */
const COUNT_PREFIX = 'n_';
export const countAttribute = (kind: string) => `${COUNT_PREFIX}${kind}`;

/** Counts from a counter item (zeros dropped: a removed last reaction leaves `n_like: 0`). */
export function countsOf(item: Record<string, unknown> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, n] of Object.entries(item ?? {})) {
    if (!name.startsWith(COUNT_PREFIX)) continue;
    const value = Number(String(n));
    if (value > 0) out[name.slice(COUNT_PREFIX.length)] = value;
  }
  return out;
}

/** The caller's kinds from their reaction item, sorted. */
export function ownKindsOf(item: Record<string, unknown> | undefined): string[] {
  const kinds = item?.kinds;
  return kinds instanceof Set ? [...(kinds as Set<string>)].sort() : [];
}
