/**
 * tagEdit job: an edited post's copies in one page of a tag's push followers' home feeds, brought to
 * the version the original now has — the copies its tagFanout wrote (a follower of the author too
 * holds the same item, keyed by the post's rk: whichever job comes second finds it current and
 * writes nothing). As the author's edit job (edits/copies.ts): one conditional UpdateItem per
 * follower and no read of the copy; the condition (the copy exists, at an older version) means an
 * update never creates a copy — a follower the author's controls shield, a retract, a tag's
 * cleanup or a trim cannot be undone by it — and never lowers one.
 *
 * Each page reads the original once (strongly consistent): gone, at a later version (that edit's
 * jobs bring every copy to it) or no longer in this tag (its tagRetract takes the copies), nothing
 * to do. The tag's feed entry is the author's edit job's (one write on its first page).
 * Cost per page: one check, one follower page, one UpdateItem per follower — a follower without a
 * copy costs its failed condition's write unit.
 */
import { copyCutoffOf } from '../../model/reader-activity.js';
import { carriesTag } from '../../model/tags.js';
import { versionOf } from '../../model/timeline-item.js';
import { updateCopiesOf } from '../edits/copies.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { liveWithOwnCopies } from '../live-originals.js';
import { pushFeedUpdates } from '../realtime/push.js';
import { activeWindowTicks } from '../reader-activity/window.js';
import { tagFollowerPage } from './tag-follower-pages.js';
import { shieldedFrom } from './hidden.js';
import { tagEditJob } from './tag-jobs.js';

export async function tagEditCopies(job: JobOf<typeof tagEditJob>): Promise<void> {
  const rk = BigInt(job.rk);
  const [check] = await liveWithOwnCopies([{ author: job.author, rk, ownCopy: false }]);
  const original = check!.original;
  if (!check!.live || versionOf(original!) > job.version || !carriesTag(original, job.tag)) return;
  // Followers whose activity bound passed before the post got no copy (reader-activity/): nothing to update.
  const activeAt = copyCutoffOf(rk, activeWindowTicks() !== undefined);
  const owners = await tagFollowerPage(job, { shielded: shieldedFrom(job.author), activeAt });
  const { updated, written } = await updateCopiesOf(owners, rk, original!);
  await pushFeedUpdates(updated, original!, written);
}

export const tagEditRunner: JobRunner<typeof tagEditJob> = { def: tagEditJob, run: tagEditCopies };
