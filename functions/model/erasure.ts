/**
 * The mark an erase leaves: graph `erased#<sha256(userId)>` / `erased`. Keyed by a hash, so after
 * the erase no item holds the user's id; GET /users/{userId} finds it (by hashing the id asked
 * for) and answers 404. `done` once the erase job finished.
 */
import { createHash } from 'node:crypto';

export const erasureKey = (userId: string) => ({ pk: `erased#${createHash('sha256').update(userId, 'utf8').digest('hex')}`, sk: 'erased' });

/**
 * Copies of the mark, one per follower-count shard (model/profile.ts): a follow's transaction
 * checks the copy on its own shard, so follows of one user never all check the same item (a
 * transaction conflicts with any other one holding an item it holds, checks included). Written
 * with the mark when an erase starts; like the mark, they hold no id and stay.
 */
export const erasureShardKey = (userId: string, shard: number) => markShardKey(erasureKey(userId).pk, shard);
/** A copy of the mark whose partition is `markPk` (the mark holds no id: a migration finds copies from it). */
export const markShardKey = (markPk: string, shard: number) => ({ pk: markPk, sk: `erased#${shard}` });
/** Whether a graph item is an erase mark itself (not one of its copies). */
export const isErasureMark = (item: { pk?: unknown; sk?: unknown }) => typeof item.pk === 'string' && item.pk.startsWith('erased#') && item.sk === 'erased';

/** The phases of the erase job, in order (services/erase/). */
export const ERASE_PHASES = ['mark', 'followers', 'following', 'originals', 'feed', 'ledger', 'notified', 'notifications', 'controls', 'rest'] as const;
export type ErasePhase = (typeof ERASE_PHASES)[number];
