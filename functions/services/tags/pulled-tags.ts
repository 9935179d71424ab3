/**
 * Hot tags in a home feed. A tag followed as pull (its follower was past FANOUT_PULL_THRESHOLD when
 * following: model/tag-items.ts) is in the follower's home-feed head (`tags`), which every first
 * page reads for free with the pulled authors; feed-reading.ts merges these sources with the home
 * feed and the pulled authors' timelines (feed-merge.ts: by rk, deduplicated — a post that came by a
 * followed author too shows once). Cost: one Query per pulled tag and one of the reader's control
 * partition (mutes and blocks apply, as in a tag's own feed), in parallel with the rest.
 */
import type { KeyRange } from '../../stores/feed-store.js';
import { runPage } from '../../stores/feed-store.js';
import { tagFeedPageInput } from '../../stores/tag-store.js';
import { type SourceResult, sourceOf } from '../feed-merge.js';
import { hiddenAuthorsOf, without } from './hidden.js';

/** The sources of `owner`'s pulled tags for a page's key range (asked for `limit + 1` items). */
export async function pulledTagSources(owner: string, keys: readonly string[], range: KeyRange, limit: number, verbs?: readonly string[]): Promise<SourceResult[]> {
  if (keys.length === 0) return [];
  const [pages, hidden] = await Promise.all([Promise.all(keys.map((k) => runPage(tagFeedPageInput(k, range, verbs)))), hiddenAuthorsOf(owner)]);
  return pages.map((p) => without(sourceOf(p.items, p.last, limit), hidden));
}
