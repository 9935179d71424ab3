/**
 * What a user attached to others' activities, indexed by user so an export can list it and an
 * erase can undo it: graph `ledger#<user>` /
 *   `r#<activityId>`           their reaction kinds on the activity (mirrors the reaction item)
 *   `c#<activityId>#<rk>`      one of their comments
 * Written in the same transaction as the reaction or comment itself.
 */
export const ledgerPartition = (user: string) => `ledger#${user}`;
export const ledgerReactionKey = (user: string, activityId: string) => ({ pk: ledgerPartition(user), sk: `r#${activityId}` });
export const ledgerCommentKey = (user: string, activityId: string, rk: bigint) => ({ pk: ledgerPartition(user), sk: `c#${activityId}#${rk}` });

export type LedgerEntry =
  | { kind: 'reaction'; activityId: string; kinds: string[] }
  | { kind: 'comment'; activityId: string; rk: bigint };

export function parseLedgerEntry(item: Record<string, unknown>): LedgerEntry | undefined {
  const sk = String(item.sk);
  if (sk.startsWith('r#')) {
    const kinds = item.kinds instanceof Set ? [...(item.kinds as Set<string>)].sort() : [];
    return { kind: 'reaction', activityId: sk.slice(2), kinds };
  }
  if (sk.startsWith('c#')) {
    const hash = sk.lastIndexOf('#');
    return { kind: 'comment', activityId: sk.slice(2, hash), rk: BigInt(sk.slice(hash + 1)) };
  }
  return undefined;
}
