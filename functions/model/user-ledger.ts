/**
 * What a user attached to others' activities, indexed by user so an export can list it and an
 * erase can undo it: graph `ledger#<user>` /
 *   `r#<hash(activityId)>`         their reaction kinds on the activity (mirrors the reaction item)
 *   `c#<hash(activityId)>#<rk>`    one of their comments
 * The activity id is hashed in the key (it may be too long for a sort key) and kept as the
 * `activityId` attribute. Written in the same transaction as the reaction or comment itself.
 */
import { shortHash } from './short-hash.js';

/** The sort-key prefix of each kind of ledger entry (a page of one kind Queries its prefix). */
export const LEDGER_PREFIX = { reaction: 'r#', comment: 'c#' } as const;
export type LedgerKind = keyof typeof LEDGER_PREFIX;

export const ledgerPartition = (user: string) => `ledger#${user}`;
export const ledgerReactionKey = (user: string, activityId: string) => ({ pk: ledgerPartition(user), sk: `${LEDGER_PREFIX.reaction}${shortHash(activityId)}` });
export const ledgerCommentKey = (user: string, activityId: string, rk: bigint) => ({
  pk: ledgerPartition(user),
  sk: `${LEDGER_PREFIX.comment}${shortHash(activityId)}#${rk}`,
});

/** The sort key is of an entry of `kind` (a cursor another kind made is not). */
export const isLedgerKey = (kind: LedgerKind, sk: string) => sk.startsWith(LEDGER_PREFIX[kind]);

export type LedgerEntry = { kind: 'reaction'; activityId: string; kinds: string[] } | { kind: 'comment'; activityId: string; rk: bigint };

export function parseLedgerEntry(item: Record<string, unknown>): LedgerEntry | undefined {
  const sk = String(item.sk);
  const activityId = item.activityId;
  if (typeof activityId !== 'string') return undefined;
  if (isLedgerKey('reaction', sk)) {
    const kinds = item.kinds instanceof Set ? [...(item.kinds as Set<string>)].sort() : [];
    return { kind: 'reaction', activityId, kinds };
  }
  if (isLedgerKey('comment', sk)) return { kind: 'comment', activityId, rk: BigInt(sk.slice(sk.lastIndexOf('#') + 1)) };
  return undefined;
}
