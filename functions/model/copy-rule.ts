/**
 * Who holds a copy of a post: the one rule (docs/lanes.md "who gets a copy"). Every job that
 * writes or removes home-feed copies, and the read-time merge, gathers the facts it needs and asks
 * here; none decides on its own.
 *
 * Roads in:
 *   own      the reader wrote the post (their post wrote their copy; nothing hides it from them);
 *   author   the reader follows the author (an active edge, not muted): stored while the author is
 *            not pulled, merged at read time while they are;
 *   tag      the reader follows one of the post's tags: push (stored) or pull (merged at read time).
 * A reader's returning write-back is the same roads, catching up what their activity bound skipped.
 * Against them: a mute or a block in either direction hides the author's posts (not the reader's
 * own), and a deleted post is shown nowhere.
 *   shown   some road brings the post and nothing hides it;
 *   stored  some road that stores copies brings it and nothing hides it: a copy may be kept. A
 *           remover (unfollow, tag unfollow, mute, block, retract, an edit dropping a tag, a
 *           write-back's re-check) takes a copy only when this is false.
 * Whether a copy is written *now* also asks the reader's activity bound (FANOUT_ACTIVE_WINDOW,
 * model/reader-activity.ts): a writer skips a reader whose bound passed before the post, and the
 * reader's stamp writes it back when they return. The bound never takes a copy away.
 */

/** The reader's follow of the post's author, as the edge (or the followers entry) says. */
export interface FollowFacts {
  readonly active: boolean;
  readonly muted: boolean;
}

/** How the reader follows one of the post's tags. */
export type TagMode = 'push' | 'pull';

/** Everything the rule needs about one reader and one post. */
export interface CopyFacts {
  readonly reader: string;
  readonly post: {
    readonly actor: string;
    /** The post's tags, as keys (model/tags.ts tagKeysOf), at its current version. */
    readonly tags: readonly string[];
    readonly deleted?: boolean;
  };
  /** The reader's follow of the author; undefined: none. */
  readonly follow?: FollowFacts;
  /** The author's posts are merged at read time (pulled) rather than copied. */
  readonly authorPulled: boolean;
  /** The reader's follows of the post's tags (tag key → mode); a tag not here is not followed. */
  readonly tagFollows: ReadonlyMap<string, TagMode>;
  /** A mute by the reader or a block in either direction stands between reader and author. */
  readonly hidden: boolean;
}

export type Road =
  { readonly kind: 'own' } | { readonly kind: 'author'; readonly stored: boolean } | { readonly kind: 'tag'; readonly tag: string; readonly stored: boolean };

/** The roads that bring the post into the reader's home feed (hidden or not). */
export function roadsOf(f: CopyFacts): Road[] {
  const roads: Road[] = [];
  if (f.post.actor === f.reader) roads.push({ kind: 'own' });
  if (followBrings(f.follow)) roads.push({ kind: 'author', stored: !f.authorPulled });
  for (const tag of f.post.tags) {
    const mode = f.tagFollows.get(tag);
    if (mode) roads.push({ kind: 'tag', tag, stored: mode === 'push' });
  }
  return roads;
}

/** What the reader's home feed must do with the post. */
export interface CopyDecision {
  /** Shown: stored, or merged at read time. */
  readonly shown: boolean;
  /** A stored copy may exist (and a writer of one of the stored roads writes it). */
  readonly stored: boolean;
}

export function decide(f: CopyFacts): CopyDecision {
  if (f.post.deleted) return { shown: false, stored: false };
  const roads = roadsOf(f);
  if (roads.some((r) => r.kind === 'own')) return { shown: true, stored: true };
  if (f.hidden) return { shown: false, stored: false };
  return { shown: roads.length > 0, stored: roads.some((r) => r.kind !== 'own' && r.stored) };
}

/** A stored copy of the post may stay in (or be written to) the reader's feed. */
export const holdsCopy = (f: CopyFacts): boolean => decide(f).stored;

/** An edge brings the followee's posts: active, not muted. */
export const followBrings = (follow: FollowFacts | undefined): boolean => follow?.active === true && !follow.muted;

/** A pulled author's posts are merged at read time: their fan-out (and an edit's) copies to no follower. */
export const authorFanoutCopies = (authorPulled: boolean): boolean => !authorPulled;

/**
 * An item a read merges (a pulled author's, a tag's, a returning reader's followee's: its road
 * brings it) is shown unless a mute or block hides its author — never hidden from its own author.
 */
export const mergedShows = (reader: string, actor: string, hidden: boolean): boolean => actor === reader || !hidden;

/** The author's road stores copies for this follow: it brings their posts, and they are not pulled (merged at read time). */
export const authorRoadStores = (follow: FollowFacts | undefined, authorPulled: boolean): boolean => followBrings(follow) && !authorPulled;

/**
 * A reader's activity bound (the `activeUntil` on the entry a fan-out page reads) reaches a post
 * made at `postTicks`: no bound, or one not passed by then. `postTicks` undefined (`off`): always.
 */
export const boundReaches = (entryUntil: bigint | undefined, postTicks: bigint | undefined): boolean =>
  postTicks === undefined || entryUntil === undefined || entryUntil >= postTicks;

/**
 * A fan-out page of the author's followers writes a copy for this followers entry: the author's
 * road (stored: the page runs only while the author is not pulled) and the bound. The entry is a
 * follow that stands (a block ends it), so a mute is the one control it can carry.
 */
export const authorPageCopies = (entry: { readonly muted: boolean; readonly activeUntil?: bigint }, postTicks: bigint | undefined): boolean =>
  followBrings({ active: true, muted: entry.muted }) && boundReaches(entry.activeUntil, postTicks);

/**
 * A tag fan-out page writes a copy for this push follower: not the author (their own post wrote
 * theirs), nothing hides the author from them (`hidden`: the author's controls, read once per
 * page), and the bound.
 */
export const tagPageCopies = (follower: string, author: string, hidden: boolean, entryUntil: bigint | undefined, postTicks: bigint | undefined): boolean =>
  follower !== author && !hidden && boundReaches(entryUntil, postTicks);
