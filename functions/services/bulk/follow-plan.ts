/**
 * The pure parts of a bulk follow import (services/bulk/follows.ts): which edges of a batch to
 * create, skip or leave, from the graph as read; and the counter changes of the edges it counts,
 * cut into transactions. No I/O: tested in test/unit/follow-import.test.ts.
 */
import type { Edge } from '../../model/follow-edge.js';
import type { CountChange, FollowPair, SkipReason } from '../../model/follow-import.js';

/** The graph as one BatchGet read it, for the edges of a batch (indexes into the canonical batch). */
export interface GraphRead {
  edge(index: number): Edge | undefined;
  /** A block stands between them, either way (the followee blocked the follower, or the follower blocks the followee). */
  blocked(index: number): boolean;
  /** The follower muted the followee. */
  muted(index: number): boolean;
  erased(userId: string): boolean;
  following(follower: string): number;
}

export interface FollowPlan {
  readonly create: number[];
  readonly muted: number[];
  readonly skipped: { index: number; reason: SkipReason }[];
  readonly existing: number;
}

/**
 * An active edge stands (existing); an erased user on either side, a block, or the follower's
 * MAX_FOLLOWING (their count as read, then the batch's edges in order) skips one; the rest are
 * created — gone edges renewed, as a follow renews them.
 */
export function planFollows(pairs: readonly FollowPair[], read: GraphRead, maxFollowing: number): FollowPlan {
  const create: number[] = [];
  const muted: number[] = [];
  const skipped: { index: number; reason: SkipReason }[] = [];
  let existing = 0;
  const following = new Map<string, number>();
  pairs.forEach((p, index) => {
    if (read.edge(index)?.state === 'active') {
      existing += 1;
      return;
    }
    if (read.erased(p.follower) || read.erased(p.followee)) return void skipped.push({ index, reason: 'erased' });
    if (read.blocked(index)) return void skipped.push({ index, reason: 'blocked' });
    const count = following.get(p.follower) ?? read.following(p.follower);
    if (count >= maxFollowing) return void skipped.push({ index, reason: 'limit' });
    following.set(p.follower, count + 1);
    create.push(index);
    if (read.muted(index)) muted.push(index);
  });
  return { create, muted, skipped, existing };
}

/** Items per counter transaction: the changes and the mark that makes the transaction count once. */
export const COUNTS_PER_TRANSACTION = 99;

/**
 * The counter changes of the counted edges, one per user and counter, in a fixed order (by user,
 * then counter), cut into transactions of COUNTS_PER_TRANSACTION: the same edges always give the
 * same transactions, so each one's mark names the same changes in every attempt.
 */
export function countTransactions(pairs: readonly FollowPair[], counted: readonly number[]): CountChange[][] {
  const by = new Map<string, CountChange>();
  const add = (userId: string, counter: CountChange['counter']) => {
    const key = `${userId}\n${counter}`;
    by.set(key, { userId, counter, by: (by.get(key)?.by ?? 0) + 1 });
  };
  for (const index of counted) {
    const p = pairs[index]!;
    add(p.followee, 'followers');
    add(p.follower, 'following');
  }
  const changes = [...by.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
  const out: CountChange[][] = [];
  for (let i = 0; i < changes.length; i += COUNTS_PER_TRANSACTION) out.push(changes.slice(i, i + COUNTS_PER_TRANSACTION));
  return out;
}
