/**
 * A tag's feed (GET /tags/{tag}/activities) and the pulled tags merged into a home feed: the feed
 * contract of feed-reading.ts (`limit`, `before`, `since`, `lastRangeKey`), one Query per page of a
 * `g#<tag>` partition whose entries carry their post's rk — ordered by the server's clock like
 * every feed, whatever `time` a client gave.
 *
 * The reader's mutes and blocks apply (hidden.ts): the page's Query and the one Query of the
 * reader's control partition run in parallel; hidden authors' entries are dropped after the Query,
 * so such a page may hold fewer than `limit` items, with a `lastRangeKey` that continues exactly
 * where the Query stopped (feed-merge.ts frontiers: no gap, no repeat).
 *
 * Writing: entries are put by the tag fan-out (fanout.ts here) and deleted with their post — at
 * once by DELETE /activities (posting.ts), again by the tag retract job, and by an erase.
 */
import { type TagKey, tagKeysOf } from '../../model/tags.js';
import { nowTicks } from '../../platform/clock.js';
import { runPage } from '../../stores/feed-store.js';
import { deleteTagEntries, tagFeedPageInput } from '../../stores/tag-store.js';
import { type ActivityPage, mergeSources, sourceOf } from '../feed-merge.js';
import { type PageRequest, rangeOf } from '../feed-reading.js';
import { ageBound } from '../retention/bounds.js';
import { timelinePolicy } from '../retention/retention-policy.js';
import { hiddenAuthorsOf, without } from './hidden.js';

/** One page of the tag `key`'s feed as `reader` may see it. */
export async function readTagFeed(reader: string, key: TagKey, req: PageRequest): Promise<ActivityPage> {
  const range = rangeOf(req, ageBound(nowTicks(), timelinePolicy().ttlMs), 1);
  const [page, hidden] = await Promise.all([runPage(tagFeedPageInput(key, range, req.verbs)), hiddenAuthorsOf(reader)]);
  const source = sourceOf(page.items, page.last, req.limit);
  // A frontier from a full page is the last kept item: with items dropped, the next page starts there anyway.
  return mergeSources([without(source, reader, hidden)], req);
}

/** Delete a post's entries from its tags' feeds (`tags` as stored on it): a DELETE, a retract, an erase. */
export async function removeTagEntries(rk: bigint, tags: unknown): Promise<void> {
  const keys = tagKeysOf(tags);
  if (keys.length) await deleteTagEntries(keys.map((tag) => ({ tag, rk })));
}
