/**
 * A home feed's head item, at rk 0 of `f#<owner>` (above every post, so the first page's Query
 * returns it for free):
 *   pulled    string set: the pulled authors (≥ FANOUT_PULL_THRESHOLD followers) the owner
 *             follows — their posts are merged at read time instead of copied;
 *   tags      string set: the tags the owner follows as a pull follower (a tag with more than
 *             FANOUT_PULL_THRESHOLD followers: services/tags/) — their feeds are merged at read time;
 *   top       rk of the newest copy when the last count trim ran: copies above it are the ones
 *             written since, which is all a trim attempt needs to read (retention/trim.ts);
 *   activeUntil  ticks: the bound stamped on all the owner's follows — posts after it may be
 *             missing from the stored feed (model/reader-activity.ts).
 * Never trimmed (trims delete rk > the N-th newest), never shown (pages skip rk 0).
 */
import { homeFeedPartition } from './feed-copy.js';
import { rkOf } from './range-key.js';
import type { TagKey } from './tags.js';

export const HEAD_RK = 0n;

export const feedHeadKey = (owner: string) => ({ pk: homeFeedPartition(owner), rk: HEAD_RK });

export interface FeedHead {
  readonly pulled: readonly string[];
  /** Tag keys followed as pull (merged at read time). */
  readonly tags: readonly TagKey[];
  readonly top?: bigint;
  readonly activeUntil?: bigint;
}

export const isFeedHead = (item: Record<string, unknown>): boolean => rkOf(item.rk) === HEAD_RK;

export function parseFeedHead(item: Record<string, unknown> | undefined): FeedHead {
  const pulled = item?.pulled;
  const tags = item?.tags;
  return {
    pulled: pulled instanceof Set ? [...(pulled as Set<string>)].sort() : [],
    tags: tags instanceof Set ? [...(tags as Set<TagKey>)].sort() : [],
    top: item?.top === undefined ? undefined : rkOf(item.top),
    activeUntil: item?.activeUntil === undefined ? undefined : rkOf(item.activeUntil),
  };
}
