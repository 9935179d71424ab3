/**
 * tagRetract job: a tagged post leaves one tag — deleted (from the outbox's MODIFY that marked the
 * original) or edited without it (retag.ts): the tag-feed entry on the first page (DELETE removed it
 * already; an erase or a late fan-out may not have), and the copies of one page of the tag's push
 * followers at a time (same rk: no lookup). After an edit, a follower who also gets the post by
 * another road (follows its author, or another of its tags) keeps the copy. Followers who left the
 * tag earlier had its copies cleaned up then.
 */
import { tagKeysOf } from '../../model/tags.js';
import { liveWithOwnCopies } from '../live-originals.js';
import { followEdgeKey, followerOfEdgePk, parseEdge } from '../../model/follow-edge.js';
import { tagFollowKey, userOfTagFollowPk } from '../../model/tag-items.js';
import { readGraphKeys } from '../../stores/follow-store.js';
import { deleteTagEntries } from '../../stores/tag-store.js';
import { removeCopies } from '../home-feed-copies.js';
import { pushFeedRemovals } from '../realtime/push.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { tagFollowerPage } from './follower-pages.js';
import { tagRetractJob } from './tag-jobs.js';

type TagRetractJob = JobOf<typeof tagRetractJob>;

/** Of `followers`, those who get the (live) post by another road: its author, or one of `keptTags`. */
async function reachedOtherwise(job: TagRetractJob, followers: readonly string[], keptTags: readonly string[]): Promise<Set<string>> {
  // One strongly consistent BatchGet: each follower's edge to the author and their follows of the kept tags.
  const found = await readGraphKeys(followers.flatMap((f) => [followEdgeKey(f, job.author), ...keptTags.map((t) => tagFollowKey(f, t))]));
  const kept = new Set<string>();
  for (const item of found) {
    const tagFollower = userOfTagFollowPk(String(item.pk));
    if (tagFollower !== undefined) kept.add(tagFollower);
    else if (parseEdge(item)?.state === 'active') kept.add(followerOfEdgePk(String(item.pk)));
  }
  return kept;
}

export async function tagRetract(job: TagRetractJob): Promise<void> {
  const rk = BigInt(job.rk);
  // An edit that took the tag out and a later one that put it back: the later one's tagFanout owns it now.
  if (!job.cursor && job.keptTags) {
    const [check] = await liveWithOwnCopies([{ author: job.author, rk, ownCopy: false }]);
    if (check!.live && tagKeysOf(check!.original?.tags).includes(job.tag)) return;
  }
  if (!job.cursor) await deleteTagEntries([{ tag: job.tag, rk }]);
  const followers = (await tagFollowerPage(job)).filter((f) => f !== job.author);
  const kept = job.keptTags ? await reachedOtherwise(job, followers, job.keptTags) : new Set<string>();
  const owners = followers.filter((f) => !kept.has(f));
  await removeCopies(owners.map((owner) => ({ owner, rk })));
  await pushFeedRemovals(owners.map((owner) => ({ owner, author: job.author, rk })));
}

export const tagRetractRunner: JobRunner<typeof tagRetractJob> = { def: tagRetractJob, run: tagRetract };
