/**
 * tagRetract job: a tagged post leaves one tag — deleted (from the outbox's MODIFY that marked the
 * original) or edited without it (retag-jobs.ts): the tag-feed entry on the first page (DELETE removed it
 * already; an erase or a late fan-out may not have), and the copies of one page of the tag's push
 * followers at a time (same rk: no lookup). After an edit, a follower the copy rule still gives the
 * post (copy-facts.ts: follows its author, or another of its tags, and nothing hides it) keeps the copy.
 * Followers who left the tag earlier had its copies cleaned up then.
 */
import { carriesTag } from '../../model/tags.js';
import { liveWithOwnCopies } from '../live-originals.js';
import { deleteTagEntries } from '../../stores/tag-store.js';
import { removeCopies } from '../home-feed-copies.js';
import { pushFeedRemovals } from '../realtime/push.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { tagFollowerPage } from './tag-follower-pages.js';
import { keptCopies } from '../copy-facts.js';
import { tagRetractJob } from './tag-jobs.js';

type TagRetractJob = JobOf<typeof tagRetractJob>;

export async function tagRetract(job: TagRetractJob): Promise<void> {
  const rk = BigInt(job.rk);
  // An edit that took the tag out and a later one that put it back: the later one's tagFanout owns it now.
  if (!job.cursor && job.keptTags) {
    const [check] = await liveWithOwnCopies([{ author: job.author, rk, ownCopy: false }]);
    if (check!.live && carriesTag(check!.original, job.tag)) return;
  }
  if (!job.cursor) await deleteTagEntries([{ tag: job.tag, rk }]);
  const followers = await tagFollowerPage(job);
  // Deleted: every copy goes. Edited without the tag: what the copy rule still keeps stays (copy-facts.ts).
  const kept = await keptCopies(followers.map((reader) => ({ reader, actor: job.author, tags: job.keptTags, deleted: !job.keptTags })));
  const owners = followers.filter((_, i) => !kept[i]);
  await removeCopies(owners.map((owner) => ({ owner, rk })));
  await pushFeedRemovals(owners.map((owner) => ({ owner, author: job.author, rk })));
}

export const tagRetractRunner: JobRunner<typeof tagRetractJob> = { def: tagRetractJob, run: tagRetract };
