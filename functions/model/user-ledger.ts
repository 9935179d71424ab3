/**
 * What a user attached to others' activities, indexed by user so an export can list it and an
 * erase can undo it: graph `ledger#<user>` /
 *   `r#<hash(activityId)>`         their reaction kinds on the activity (mirrors the reaction item)
 *   `c#<hash(activityId)>#<rk>`    one of their comments
 * The activity id is hashed in the key (it may be too long for a sort key) and kept as the
 * `activityId` attribute. Written in the same transaction as the reaction or comment itself.
 */
import { shortHash } from './short-hash.js';

export const ledgerPartition = (user: string) => `ledger#${user}`;
export const ledgerReactionKey = (user: string, activityId: string) => ({ pk: ledgerPartition(user), sk: `r#${shortHash(activityId)}` });
export const ledgerCommentKey = (user: string, activityId: string, rk: bigint) => ({ pk: ledgerPartition(user), sk: `c#${shortHash(activityId)}#${rk}` });

export type LedgerEntry =
  | { kind: 'reaction'; activityId: string; kinds: string[] }
  | { kind: 'comment'; activityId: string; rk: bigint };

export function parseLedgerEntry(item: Record<string, unknown>): LedgerEntry | undefined {
  const sk = String(item.sk);
  const activityId = item.activityId;
  if (typeof activityId !== 'string') return undefined;
  if (sk.startsWith('r#')) {
    const kinds = item.kinds instanceof Set ? [...(item.kinds as Set<string>)].sort() : [];
    return { kind: 'reaction', activityId, kinds };
  }
  if (sk.startsWith('c#')) return { kind: 'comment', activityId, rk: BigInt(sk.slice(sk.lastIndexOf('#') + 1)) };
  return undefined;
}
