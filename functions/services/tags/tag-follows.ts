/**
 * Following tags: PUT/DELETE /following/tags/{tag} (204, idempotent) and GET /me/tags.
 *
 * A follow is push while the tag has fewer than FANOUT_PULL_THRESHOLD push followers (its fan-out
 * copies posts to them), pull beyond (the tag goes into the follower's home-feed head and reads
 * merge its feed: pulled-tags.ts) — decided by the follow's own transaction, which counts push
 * followers with a condition, so concurrent follows cannot overshoot. A follow copies no past posts
 * (as Mastodon's tag follows): the home feed shows the tag's posts from then on.
 *
 * An unfollow of a push follow starts the cleanup (tag-cleanup.ts) at once and again after
 * CONTROL_SETTLE (queued first: unfollowTagKey); a pull follow had no copies, and leaving the head
 * ends the merge.
 */
import { setting } from '../../../lib/defs/config.js';
import { type TagFollow } from '../../model/tag-items.js';
import { isNormalTag, parseTag, type TagKey, tagKeyOf } from '../../model/tags.js';
import { nowTicks } from '../../platform/clock.js';
import { AGAIN, RETRY, retrying } from '../../platform/retry.js';
import { followTagPull, followTagPush, getTagFollow, tagFollowsPage, unfollowTagTx } from '../../stores/tag-store.js';
import { controlSettleSeconds } from '../controls-state.js';
import { enqueueJob } from '../jobs/bus.js';
import { afterCursor, type ListPage, listPageOf, type ListRequest } from '../list-page.js';

/** The written form and key of a tag from a path (the schema checked it is a tag). */
export function tagOfPath(text: string): { written: string; key: TagKey } {
  const written = parseTag(text)!;
  return { written, key: tagKeyOf(written) };
}

export async function followTag(user: string, text: string): Promise<void> {
  const { written, key } = tagOfPath(text);
  const maxPush = setting('FANOUT_PULL_THRESHOLD');
  await retrying(`follow tag ${key}`, RETRY.request, async () => {
    const ticks = nowTicks();
    const push = await followTagPush(user, key, written, ticks, maxPush);
    if (push === 'done' || push === 'exists') return undefined;
    if (push === 'conflict') return AGAIN;
    const pull = await followTagPull(user, key, written, ticks); // the tag has its push followers
    return pull === 'conflict' ? AGAIN : undefined;
  });
}

export async function unfollowTag(user: string, text: string): Promise<void> {
  await unfollowTagKey(user, tagOfPath(text).key);
}

/**
 * Unfollow by key (an erase too: `cleanup` false, its feed is going anyway). The settle run of the
 * cleanup is queued before the follow goes, so a crash right after the transaction loses nothing (a
 * repeat finds no follow); had the transaction not happened, that run finds the follow and does
 * nothing.
 */
export async function unfollowTagKey(user: string, key: TagKey, opts: { cleanup: boolean } = { cleanup: true }): Promise<void> {
  const first = await getTagFollow(user, key);
  if (!first) return;
  const cleanupOf = (f: TagFollow) => ({ kind: 'tagCleanup' as const, user, tag: key, followedAt: String(f.followedAt) });
  const cleans = opts.cleanup && first.mode === 'push';
  if (cleans) await enqueueJob(cleanupOf(first), controlSettleSeconds());
  const left = await retrying(`unfollow tag ${key}`, RETRY.request, async (attempt): Promise<TagFollow | undefined | typeof AGAIN> => {
    const follow = attempt === 1 ? first : await getTagFollow(user, key);
    if (!follow) return undefined;
    const out = await unfollowTagTx(user, follow);
    return out === 'done' ? follow : out === 'gone' ? undefined : AGAIN;
  });
  if (left && cleans) await enqueueJob(cleanupOf(left));
}

/** The tags `user` follows, by tag key, each as they wrote it: `{ items: [{ tag }], next }`. */
export async function listFollowedTags(user: string, req: ListRequest): Promise<ListPage<{ tag: string }>> {
  const page = await tagFollowsPage(user, req.limit, afterCursor(req.cursor, isNormalTag));
  return listPageOf(page, (f) => ({ tag: f.tag }));
}
