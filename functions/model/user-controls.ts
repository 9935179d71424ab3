/**
 * Mutes and blocks, in the graph table under `ctl#<user>`:
 *   `mute#<target>`          the user muted target: the list entry (lists page by it, alphabetically)
 *   `mh#<hash(target)>`      the same mute's check entry: what every check reads (one GetItem or
 *                            BatchGet key). It holds no id, only a hash of the target's: so it
 *                            outlives the target's erase, and applies again if the same id comes back
 *   `mutedBy#<user>`         the mirror, in the target's partition: lets an erase of either side
 *                            find the other
 *   `block#` / `bh#` / `blockedBy#`   the same for a block
 * When the target is erased, the owner's list entry becomes `mute#\x7f<hash(target)>` (no id: the
 * list shows an erased user; user ids hold no control characters, so it is never a real one) and
 * the check entry stays: what the owner placed, no one else removes.
 *
 * A mute also flags the follow edge and the muted author's followers-list entry (`muted`), so the
 * fan-out skips the muter from the page it already reads — no read per follower.
 */
import { shortHash } from './short-hash.js';
import { isValidUserId, isWellFormed } from './user-id.js';

export type Control = 'mute' | 'block';

export const controlPartition = (user: string) => `ctl#${user}`;
const mirrorOf = { mute: 'mutedBy', block: 'blockedBy' } as const;
const checkOf = { mute: 'mh', block: 'bh' } as const;
/** Leads an erased target's list entry: a control character, which no user id holds. */
const ERASED_MARK = '\u007f';

/** `user`'s check entry of a mute/block of `target`: the key every check reads. */
export const controlCheckKey = (kind: Control, user: string, target: string) => ({ pk: controlPartition(user), sk: `${checkOf[kind]}#${shortHash(target)}` });
/** `user`'s list entry of a mute/block of `target`. */
export const controlListKey = (kind: Control, user: string, target: string) => ({ pk: controlPartition(user), sk: `${kind}#${target}` });
/** The list entry once `target` was erased. */
export const erasedListKey = (kind: Control, user: string, target: string) => ({
  pk: controlPartition(user),
  sk: `${kind}#${ERASED_MARK}${shortHash(target)}`,
});
/** Its mirror in the target's partition. */
export const mirrorKey = (kind: Control, user: string, target: string) => ({ pk: controlPartition(target), sk: `${mirrorOf[kind]}#${user}` });
export const controlPrefix = (kind: Control) => `${kind}#`;
/** Sort-key prefix of `user`'s check entries of one kind (`mh#`, `bh#`): one Query lists whom they muted or blocked, as hashes. */
export const checkPrefix = (kind: Control) => `${checkOf[kind]}#`;
/** Sort-key prefix of the mirrors in `user`'s partition (`mutedBy#`, `blockedBy#`): who muted or blocked them. */
export const mirrorPrefix = (kind: Control) => `${mirrorOf[kind]}#`;
/** The hash a check entry's sort key holds (`mh#<hash>` → hash). */
export const hashOfCheckSk = (sk: string): string => sk.slice(sk.indexOf('#') + 1);

/** The other user named by a control item's sort key (`mute#bob` → bob; `blockedBy#carol` → carol). */
export const otherOfControlSk = (sk: string): string => sk.slice(sk.indexOf('#') + 1);
/** `mute`, `block`, `mh`, `bh`, `mutedBy` or `blockedBy`. */
export const kindOfControlSk = (sk: string): string => sk.slice(0, sk.indexOf('#'));
/** A list entry's target as read: an erased user's entry names no one. */
export const isErasedTarget = (target: string): boolean => target.startsWith(ERASED_MARK);
/** A list entry as shown (GET /mutes, /blocks, the export): an erased user's names no one (null). */
export const controlEntry = (target: string): { userId: string | null } => ({ userId: isErasedTarget(target) ? null : target });

/**
 * Whether `target` is a list entry's target this API could have produced — a user id or an erased
 * entry's mark, nothing longer — what a cursor of a mutes or blocks list may name (an arbitrary
 * string could pass DynamoDB's sort-key size: a 500, not a 400).
 */
export const isControlTarget = (target: string): boolean => isValidUserId(target) || (isErasedTarget(target) && target.length <= 64 && isWellFormed(target));
