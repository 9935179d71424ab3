/**
 * tagFanout job: a tagged post into one tag (one job per tag, from the outbox's INSERT). First page:
 * the tag-feed entry and the trend count (trending.ts). Every page: copies into one page of the
 * tag's push followers' home feeds — not the author's (the post's own fan-out writes theirs), not
 * followers the author's controls shield (hidden.ts: who muted or blocked the author, or whom the
 * author blocked), not followers whose activity bound passed before the post (FANOUT_ACTIVE_WINDOW:
 * the bound rides the follower entry the page reads anyway; the reader's stamp writes back what
 * they missed, services/reader-activity/). A copy has the post's rk, the key an author's fan-out and every other tag's use:
 * a post reaching a feed by two roads is one item, and a redelivered page rewrites the same keys.
 *
 * Delete-safety is fanout.ts's: checked before (a deleted post writes nothing) and re-checked after
 * the writes (copies and entry written after the DELETE's mark are taken back); a redelivered page
 * whose post is gone takes back what an earlier attempt may have written. Strongly consistent reads
 * make the two orders exhaustive.
 *
 * Cost per post and tag: the entry (1 write), the trend count (trending.ts), and per push follower
 * one copy write; reads: one check before and one after, one follower page and one control-partition
 * Query per page of FOLLOWER_PAGE followers.
 */
import { ticksOfRangeKey } from '../../model/range-key.js';
import { copyCutoffOf } from '../../model/reader-activity.js';
import { carriesTag } from '../../model/tags.js';
import { itemOfImage, type StreamImage } from '../../platform/dynamo/images.js';
import { deleteTagEntries, putTagEntries } from '../../stores/tag-store.js';
import { removeCopies, writeCopies } from '../home-feed-copies.js';
import { pushFeedItemsOf } from '../realtime/push.js';
import { expiresAtFor } from '../retention/bounds.js';
import { timelinePolicy } from '../retention/retention-policy.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { liveWithOwnCopies, settleWritten } from '../live-originals.js';
import { activeWindowTicks } from '../reader-activity/window.js';
import { tagFollowerPage, tagFollowersAt } from './tag-follower-pages.js';
import { keptCopies } from '../copy-facts.js';
import { shieldedFrom } from './hidden.js';
import { tagFanoutJob } from './tag-jobs.js';
import { countTrend } from './trending.js';

type TagFanoutJob = JobOf<typeof tagFanoutJob>;

/**
 * Take back what this page may have written: on the first page the entry, and its followers' copies
 * — all of them when the post is gone; when it lives on without the tag (`liveTags`, an edit), those
 * the copy rule no longer keeps (copy-facts.ts).
 */
async function takeBack(job: TagFanoutJob, rk: bigint, owners: readonly string[], liveTags?: unknown): Promise<void> {
  const kept = await keptCopies(owners.map((reader) => ({ reader, actor: job.author, tags: liveTags, deleted: liveTags === undefined })));
  const gone = owners.filter((_, i) => !kept[i]);
  await Promise.all([removeCopies(gone.map((owner) => ({ owner, rk }))), job.cursor ? undefined : deleteTagEntries([{ tag: job.tag, rk }])]);
}

export async function tagFanout(job: TagFanoutJob, redelivered = false): Promise<void> {
  const rk = BigInt(job.rk);
  const [check] = await liveWithOwnCopies([{ author: job.author, rk, ownCopy: false }]);
  // Live and still carrying the tag: an edit may have taken it out since this job was queued (its
  // tagRetract, on another lane, may have run first — then this page must write nothing).
  if (!check!.live || !carriesTag(check!.original, job.tag)) {
    if (redelivered) await takeBack(job, rk, await tagFollowersAt(job), check!.live ? (check!.original?.tags ?? []) : undefined);
    return;
  }
  // The original as read (its latest version: an edit may have come before this page), not the image.
  const { pk: _pk, expiresAt: _e, ...fields } = check!.original!;
  const source = { ...fields, rk };
  if (!job.cursor) {
    // The entry expires with its original (TIMELINE_TTL from the post's instant; the stream image carries no expiresAt).
    await putTagEntries([{ source: { ...source, expiresAt: expiresAtFor(ticksOfRangeKey(rk), timelinePolicy().ttlMs) }, tag: job.tag }]);
    await countTrend(job.author, job.tag, itemOfImage(job.image as StreamImage).tags, ticksOfRangeKey(rk));
  }
  const activeAt = copyCutoffOf(rk, activeWindowTicks() !== undefined);
  const owners = await tagFollowerPage(job, { shielded: shieldedFrom(job.author), activeAt });
  const { written } = await writeCopies(owners.map((owner) => ({ owner, source })));
  // The re-check (live-originals.ts): deleted meanwhile, taken back; edited meanwhile, written again at its version.
  const { gone, kept } = await settleWritten([{ author: job.author, rk, source, owners, written }]);
  if (gone.length) return takeBack(job, rk, owners);
  const lost = kept.find((g) => !carriesTag(g.source, job.tag));
  if (lost) return takeBack(job, rk, owners, (lost.source as { tags?: unknown }).tags ?? []);
  // After the re-check, as fanout.ts does: a copy about to be taken back is not announced. A reader
  // reached by two roads may hear of the post twice; a client keeps one item per id.
  await pushFeedItemsOf(kept.map((g) => ({ copies: g.owners.map((owner) => ({ owner, source: g.source })), seq: g.written })));
}

export const tagFanoutRunner: JobRunner<typeof tagFanoutJob> = {
  def: tagFanoutJob,
  run: (job) => tagFanout(job),
  runBatch: (jobs, redelivered) => jobs.map((job, i) => tagFanout(job, redelivered[i] === true)),
};
