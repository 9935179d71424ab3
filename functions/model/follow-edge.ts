/**
 * A follow edge, `follow#<follower>` / `<followee>` in the graph table: the truth of "does A
 * follow B", written in the same transaction as both list entries and both counters.
 * States: absent → active (follow) → gone (unfollow) → active (follow again) …
 * `backfillPending` / `cleanupPending` mark a follow/unfollow whose job has not finished.
 */
import { followBrings } from './copy-rule.js';
import { MAX_TICKS } from './range-key.js';

export const followEdgeKey = (follower: string, followee: string) => ({ pk: `follow#${follower}`, sk: followee });
/** The follower an edge's partition `follow#<follower>` names. */
export const followerOfEdgePk = (pk: string): string => pk.slice('follow#'.length);

export type EdgeState = 'active' | 'gone';
export type PendingFlag = 'backfillPending' | 'cleanupPending';

export interface Edge {
  readonly state: EdgeState;
  /** List sort prefix of this follow (see follow-lists.ts). */
  readonly order: string;
  /** Server ticks of the follow. */
  readonly followedAt: bigint;
  readonly backfillPending: boolean;
  readonly cleanupPending: boolean;
  /** The follower muted the followee: the fan-out skips them (user-controls.ts). */
  readonly muted: boolean;
}

const ORDER_DIGITS = 19;

/** Sort prefix of a follow made at `ticks`: ascending = newest first, like feed range keys. */
export const followOrder = (ticks: bigint): string => (MAX_TICKS - ticks).toString().padStart(ORDER_DIGITS, '0');

/** A new (or renewed) active edge. */
export function activeEdgeItem(follower: string, followee: string, ticks: bigint, backfillPending: boolean, muted = false) {
  return {
    ...followEdgeKey(follower, followee),
    state: 'active' as const,
    order: followOrder(ticks),
    followedAt: ticks.toString(),
    ...(backfillPending ? { backfillPending: true } : {}),
    ...(muted ? { muted: true } : {}),
  };
}

/** The edge still brings the followee's posts into the follower's feed (the copy rule: model/copy-rule.ts). */
export const wantsPosts = (edge: Edge | undefined): boolean => followBrings(edge && { active: edge.state === 'active', muted: edge.muted });

export function parseEdge(item: Record<string, unknown> | undefined): Edge | undefined {
  if (!item) return undefined;
  return {
    state: item.state === 'active' ? 'active' : 'gone',
    order: String(item.order),
    followedAt: BigInt(String(item.followedAt)),
    backfillPending: item.backfillPending === true,
    cleanupPending: item.cleanupPending === true,
    muted: item.muted === true,
  };
}
