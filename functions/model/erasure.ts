/**
 * The mark an erase leaves: graph `erased#<sha256(userId)>` / `erased`. Keyed by a hash, so after
 * the erase no item holds the user's id; GET /users/{userId} finds it (by hashing the id asked
 * for) and answers 404. `done` once the erase job finished.
 */
import { createHash } from 'node:crypto';

export const erasureKey = (userId: string) => ({ pk: `erased#${createHash('sha256').update(userId, 'utf8').digest('hex')}`, sk: 'erased' });

/** The phases of the erase job, in order (services/erase/). */
export const ERASE_PHASES = ['mark', 'followers', 'following', 'originals', 'feed', 'ledger', 'notified', 'notifications', 'controls', 'rest'] as const;
export type ErasePhase = (typeof ERASE_PHASES)[number];
