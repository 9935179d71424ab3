/**
 * Tags' feeds merged into a home feed at read time. A tag followed as pull (its follower was past
 * FANOUT_PULL_THRESHOLD when following: model/tag-items.ts) is in the follower's home-feed head
 * (`tags`), which every first page reads for free with the pulled authors; and a returning reader
 * (their activity bound passed: model/reader-activity.ts) has their push-followed tags' posts made
 * since merged, as their followees', until their stamp wrote the copies back. feed-reading.ts
 * merges these sources with the home feed and the authors' timelines (feed-merge.ts: by rk,
 * deduplicated — a post that came by a followed author too shows once). Cost: one Query per tag and
 * one of the reader's control partition (mutes and blocks apply, as in a tag's own feed), in
 * parallel with the rest.
 */
import type { KeyRange } from '../../stores/feed-store.js';
import { runPage } from '../../stores/feed-store.js';
import { tagFeedPageInput } from '../../stores/tag-store.js';
import type { TagKey } from '../../model/tags.js';
import { type SourceResult, sourceOf } from '../feed-merge.js';
import { hiddenAuthorsOf, without } from './hidden.js';

/** A tag's feed over a key range: a pulled tag's over the page's, a returning reader's push tag's over the part they may lack. */
export interface TagSource {
  readonly key: TagKey;
  readonly range: KeyRange;
}

/** The sources of `owner`'s merged tags for a page (each asked for `limit + 1` items by its range). */
export async function tagFeedSources(owner: string, tags: readonly TagSource[], limit: number, verbs?: readonly string[]): Promise<SourceResult[]> {
  if (tags.length === 0) return [];
  const [pages, hidden] = await Promise.all([Promise.all(tags.map((t) => runPage(tagFeedPageInput(t.key, t.range, verbs)))), hiddenAuthorsOf(owner)]);
  return pages.map((p) => without(sourceOf(p.items, p.last, limit), owner, hidden));
}
