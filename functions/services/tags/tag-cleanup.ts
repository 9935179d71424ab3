/**
 * tagCleanup job: after a tag unfollow, remove from the ex-follower's home feed the copies only that
 * tag brought, without reading the feed: every copy has its post's rk, so the candidates are the
 * tag's entries posted since the follow (less FANOUT_SLACK_MS, for fan-outs of slightly older posts
 * that ran after it), newest first, at most CLEANUP_LIMIT of them (a home feed keeps its newest
 * FEED_MAX_ITEMS anyway; older leftovers go with its retention). A candidate stays when it came, or
 * could have come, by another road, and nothing hides it (the copy rule, copy-facts.ts): the
 * follower's own post, a post by someone they follow, or a post with another tag they follow as push.
 *
 * Like the unfollow's cleanup (follow-copies/unfollow-cleanup.ts) it runs twice: at once, and again
 * CONTROL_SETTLE later (the same job, delayed), for a fan-out page that read the followers before the unfollow
 * and wrote after the first run. Nothing runs if the tag was followed again meanwhile.
 */
import { rangeKeyOf } from '../../model/range-key.js';
import { getTagFollow, tagEntryKeys } from '../../stores/tag-store.js';
import { removeCopies } from '../home-feed-copies.js';
import { pushFeedRemovals } from '../realtime/push.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { keptCopies } from '../copy-facts.js';
import { tagCleanupJob } from './tag-jobs.js';

/** Entries of the tag a cleanup reads at most. */
export const CLEANUP_LIMIT = 1000;
/** How much older than the follow a post's tag fan-out may be and still have copied it. */
export const FANOUT_SLACK_MS = 10 * 60_000;
const PAGE = 100;

export async function tagCleanup(job: JobOf<typeof tagCleanupJob>): Promise<void> {
  if (await getTagFollow(job.user, job.tag)) return; // followed again: keep the feed as it is
  const since = BigInt(job.followedAt) - BigInt(FANOUT_SLACK_MS) * 1_000_000n;
  const oldest = rangeKeyOf(since > 0n ? since : 0n, 0n); // posted before: rk above
  let after: bigint | undefined;
  let read = 0;
  while (read < CLEANUP_LIMIT) {
    const page = await tagEntryKeys(job.tag, PAGE, after);
    const inRange = page.items.filter((e) => e.rk < oldest);
    read += page.items.length;
    const kept = await keptCopies(inRange.map((e) => ({ reader: job.user, actor: e.actor, tags: e.tags })));
    const gone = inRange.filter((_, i) => !kept[i]);
    await removeCopies(gone.map((e) => ({ owner: job.user, rk: e.rk })));
    await pushFeedRemovals(gone.map((e) => ({ owner: job.user, author: e.actor, rk: e.rk })));
    if (page.last === undefined || inRange.length < page.items.length) break;
    after = page.last;
  }
}

export const tagCleanupRunner: JobRunner<typeof tagCleanupJob> = { def: tagCleanupJob, run: tagCleanup };
