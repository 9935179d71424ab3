/**
 * tagCleanup job: after a tag unfollow, remove from the ex-follower's home feed the copies only that
 * tag brought, without reading the feed: every copy has its post's rk, so the candidates are the
 * tag's entries posted since the follow (less FANOUT_SLACK_MS, for fan-outs of slightly older posts
 * that ran after it), newest first, at most CLEANUP_LIMIT of them (a home feed keeps its newest
 * FEED_MAX_ITEMS anyway; older leftovers go with its retention). A candidate stays when it came, or
 * could have come, by another road: the follower's own post, a post by someone they follow (an
 * active edge), or a post with another tag they follow.
 *
 * Like the unfollow's cleanup (follow-copies/cleanup.ts) it runs twice: at once, and again
 * CONTROL_SETTLE later (the same job, delayed), for a fan-out page that read the followers before the unfollow
 * and wrote after the first run. Nothing runs if the tag was followed again meanwhile.
 */
import { rangeKeyOf } from '../../model/range-key.js';
import { tagKeysOf } from '../../model/tags.js';
import { standingControls } from '../../stores/controls-store.js';
import { getTagFollow, tagEntryKeys, tagFollowsPage } from '../../stores/tag-store.js';
import { removeCopies } from '../home-feed-copies.js';
import { pushFeedRemovals } from '../realtime/push.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { tagCleanupJob } from './tag-jobs.js';

/** Entries of the tag a cleanup reads at most. */
export const CLEANUP_LIMIT = 1000;
/** How much older than the follow a post's tag fan-out may be and still have copied it. */
export const FANOUT_SLACK_MS = 10 * 60_000;
const PAGE = 100;

/** Every tag key `user` follows (their `tagf#` partition). */
async function followedTags(user: string): Promise<Set<string>> {
  const keys = new Set<string>();
  let after: string | undefined;
  do {
    const page = await tagFollowsPage(user, 100, after);
    for (const f of page.items) keys.add(f.key);
    after = page.last;
  } while (after !== undefined);
  return keys;
}

export async function tagCleanup(job: JobOf<typeof tagCleanupJob>): Promise<void> {
  if (await getTagFollow(job.user, job.tag)) return; // followed again: keep the feed as it is
  const others = await followedTags(job.user);
  const since = BigInt(job.followedAt) - BigInt(FANOUT_SLACK_MS) * 1_000_000n;
  const oldest = rangeKeyOf(since > 0n ? since : 0n, 0n); // posted before: rk above
  let after: bigint | undefined;
  let read = 0;
  while (read < CLEANUP_LIMIT) {
    const page = await tagEntryKeys(job.tag, PAGE, after);
    const inRange = page.items.filter((e) => e.rk < oldest);
    read += page.items.length;
    const candidates = inRange.filter((e) => e.actor !== job.user && !tagKeysOf(e.tags).some((k) => k !== job.tag && others.has(k)));
    const { following } = await standingControls([], { follower: job.user, followees: [...new Set(candidates.map((e) => e.actor))] });
    const gone = candidates.filter((e) => !following.has(e.actor));
    await removeCopies(gone.map((e) => ({ owner: job.user, rk: e.rk })));
    await pushFeedRemovals(gone.map((e) => ({ owner: job.user, author: e.actor, rk: e.rk })));
    if (page.last === undefined || inRange.length < page.items.length) break;
    after = page.last;
  }
}

export const tagCleanupRunner: JobRunner<typeof tagCleanupJob> = { def: tagCleanupJob, run: tagCleanup };
