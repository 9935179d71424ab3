/**
 * edit job: bring every existing copy of an edited post to the version the original now has — the
 * author's own (first page) and one page of followers per job, walked as the fan-out walks them
 * (follower-pages.ts). One conditional UpdateItem per copy and no read of it: the condition
 * (the copy exists, at an older version) means an update never creates a copy — a deleted post's
 * retract, an unfollow's cleanup or a trim cannot be undone by it — and never lowers one, whatever
 * the order the edits' jobs run in. Copies written after this page passed are written at the
 * latest version by their writer (live-originals.ts settleWritten).
 *
 * Each page reads the original once (strongly consistent): gone, nothing to do (the retract takes
 * the copies); at a later version, nothing either — that edit's own job brings every copy to it.
 * The first page also tells those who reacted or commented (notices.ts).
 * A pulled author has no follower copies: their followers' reads merge the timeline, and the
 * connected ones are told from the connected side.
 */
import { tagKeysOf } from '../../model/tags.js';
import { updateTagEntries } from '../../stores/tag-store.js';
import { authorFanoutCopies } from '../../model/copy-rule.js';
import { copyCutoffOf } from '../../model/reader-activity.js';
import { versionOf } from '../../model/timeline-item.js';
import { nowTicks } from '../../platform/clock.js';
import { forEachLimit } from '../../platform/pool.js';
import type { Item } from '../../platform/dynamo/query.js';
import { editableOf, type EditedState } from '../../model/editable-fields.js';
import { updateCopy } from '../../stores/feed-store.js';
import { fanoutPageSize, followerPage } from '../follower-pages.js';
import { activeWindowTicks } from '../reader-activity/window.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { liveWithOwnCopies } from '../live-originals.js';
import { pushFeedUpdates, pushPulledUpdate } from '../realtime/push.js';
import { editJob } from './edit-job.js';
import { noticeEdit } from './notices.js';

/** UpdateItem calls in flight per page. */
const UPDATE_CONCURRENCY = 32;

/** What an edit sets on a copy: the original's editable fields, tags, version and edit time. */
export const editedStateOf = (original: Item): EditedState => ({
  ...editableOf(original),
  version: versionOf(original),
  editedAt: String(original.editedAt),
});

/**
 * Bring `owners`' copies of `original` to its version (feed-store updateCopy: one conditional
 * write each, no read). Returns who had a copy changed, and the instant they were written at.
 * Also the tag followers' edit pages (tags/edit-copies.ts).
 */
export async function updateCopiesOf(owners: readonly string[], rk: bigint, original: Item): Promise<{ updated: string[]; written: bigint }> {
  const state = editedStateOf(original);
  const written = nowTicks();
  const updated: string[] = [];
  await forEachLimit(owners, UPDATE_CONCURRENCY, async (owner) => {
    if (await updateCopy(owner, rk, state, written)) updated.push(owner);
  });
  return { updated, written };
}

export async function editCopies(job: JobOf<typeof editJob>): Promise<void> {
  const rk = BigInt(job.rk);
  const [check] = await liveWithOwnCopies([{ author: job.author, rk, ownCopy: false, pulled: !job.cursor }]);
  const original = check!.original;
  if (!check!.live || versionOf(original!) > job.version) return;
  // The first page also brings the post's entries in its tags' feeds to the version (tags/: one write each).
  if (!job.cursor)
    await Promise.all([
      noticeEdit(job.author, rk, job.version, String(original!.editedAt)),
      updateTagEntries(tagKeysOf(original!.tags), rk, editedStateOf(original!)),
    ]);
  // Followers whose activity bound passed before the post got no copy (reader-activity/): nothing to update.
  const activeAt = copyCutoffOf(rk, activeWindowTicks() !== undefined);
  const followers = !authorFanoutCopies(check!.pulled) ? [] : await followerPage(job, job.author, fanoutPageSize(job), { copiedOnly: true, activeAt });
  const owners = job.cursor ? followers : [job.author, ...followers];
  const { updated, written } = await updateCopiesOf(owners, rk, original!);
  await (check!.pulled ? pushPulledUpdate(job.author, original!, written) : pushFeedUpdates(updated, original!, written));
}

export const editRunner: JobRunner<typeof editJob> = { def: editJob, run: editCopies };
