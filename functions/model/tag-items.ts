/**
 * The stored items of hashtags (keys: model/tags.ts tagKeyOf):
 *   feed table   `g#<tag>` / the post's rk       a tag-feed entry: the post's fields, like a home-feed
 *                                                copy, so a page of a tag is one Query
 *   graph table  `tagf#<user>` / `<tag>`         the user follows the tag: `tag` (as they wrote it),
 *                                                `followedAt` (server ticks), `mode` push or pull
 *                `tagfollowers#<tag>` / `<user>` a push follower: the tag fan-out walks these
 *                `tag#<tag>` / `meta`            `followers`: the push followers (≤ FANOUT_PULL_THRESHOLD)
 *
 * Push and pull: the first FANOUT_PULL_THRESHOLD followers of a tag get copies of its posts (the
 * tag fan-out writes them); a follow beyond that is a pull follow — the tag goes into the follower's
 * home-feed head (`tags`) and reads merge the tag's feed, as they merge a pulled author's timeline.
 * A tag's fan-out therefore never writes more than the threshold's copies per post.
 */
import { feedPartitionPrefix } from '../../lib/defs/key-prefixes.js';
import { copyOf, type CopySource } from './feed-copy.js';
import type { TagKey } from './tags.js';

export const tagFeedPartition = (key: TagKey) => `${feedPartitionPrefix.tag}${key}`;
export const tagFeedKey = (key: TagKey, rk: bigint) => ({ pk: tagFeedPartition(key), rk });

/** A tag-feed entry of the original `source` (its fields; the timeline's TTL, if the original has one). */
export function tagEntryOf(source: CopySource, key: TagKey): Record<string, unknown> {
  const { expiresAt } = source;
  return { ...copyOf(source, '', undefined), pk: tagFeedPartition(key), ...(expiresAt === undefined ? {} : { expiresAt }) };
}

const TAG_FOLLOW_PREFIX = 'tagf#';
export const tagFollowPartition = (user: string) => `${TAG_FOLLOW_PREFIX}${user}`;
/** The user whose tag-follow partition `pk` is, or undefined for any other partition. */
export const userOfTagFollowPk = (pk: string): string | undefined => (pk.startsWith(TAG_FOLLOW_PREFIX) ? pk.slice(TAG_FOLLOW_PREFIX.length) : undefined);
export const tagFollowKey = (user: string, key: TagKey) => ({ pk: tagFollowPartition(user), sk: key });
export const tagFollowersPartition = (key: TagKey) => `tagfollowers#${key}`;
export const tagFollowerKey = (key: TagKey, user: string) => ({ pk: tagFollowersPartition(key), sk: user });
export const tagMetaKey = (key: TagKey) => ({ pk: `tag#${key}`, sk: 'meta' });

/** How a follower gets a tag's posts: copies (push) or merged at read time (pull). */
export type TagFollowMode = 'push' | 'pull';

export interface TagFollow {
  /** As the follower wrote it. */
  readonly tag: string;
  readonly key: TagKey;
  readonly followedAt: bigint;
  readonly mode: TagFollowMode;
}

export function tagFollowItem(user: string, key: TagKey, written: string, followedAt: bigint, mode: TagFollowMode) {
  return { ...tagFollowKey(user, key), tag: written, followedAt, mode };
}

export function parseTagFollow(item: Record<string, unknown> | undefined): TagFollow | undefined {
  if (!item) return undefined;
  return { key: String(item.sk) as TagKey, tag: String(item.tag), followedAt: BigInt(String(item.followedAt)), mode: item.mode === 'pull' ? 'pull' : 'push' };
}
