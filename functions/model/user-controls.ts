/**
 * Mutes and blocks, in the graph table under `ctl#<user>`:
 *   `mute#<target>`      the user muted target        `mutedBy#<user>`   … and its mirror in the
 *   `block#<target>`     the user blocked target      `blockedBy#<user>`   target's partition
 * A mirror lets an erase find and remove both sides, and a check ("did B block A?") is one GetItem
 * of B's `block#A`. Lists page by sort key (alphabetical), with an opaque cursor.
 *
 * A mute also flags the follow edge and the muted author's followers-list entry (`muted`), so the
 * fan-out skips the muter from the page it already reads — no read per follower.
 */
export type Control = 'mute' | 'block';

export const controlPartition = (user: string) => `ctl#${user}`;
const mirrorOf = { mute: 'mutedBy', block: 'blockedBy' } as const;

/** `user`'s mute/block of `target`. */
export const controlKey = (kind: Control, user: string, target: string) => ({ pk: controlPartition(user), sk: `${kind}#${target}` });
/** Its mirror in the target's partition. */
export const mirrorKey = (kind: Control, user: string, target: string) => ({ pk: controlPartition(target), sk: `${mirrorOf[kind]}#${user}` });
export const controlPrefix = (kind: Control) => `${kind}#`;

/** The other user named by a control item's sort key (`mute#bob` → bob; `blockedBy#carol` → carol). */
export const otherOfControlSk = (sk: string): string => sk.slice(sk.indexOf('#') + 1);
export const kindOfControlSk = (sk: string): string => sk.slice(0, sk.indexOf('#'));

export const encodeControlCursor = (target: string): string => Buffer.from(target, 'utf8').toString('base64url');
export function decodeControlCursor(cursor: string): string | undefined {
  const target = Buffer.from(cursor, 'base64url').toString('utf8');
  return target !== '' && encodeControlCursor(target) === cursor ? target : undefined;
}
