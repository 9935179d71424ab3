/**
 * Those who reacted to or commented on an activity hear of its edits (so nobody's reaction
 * silently stands under changed words): one `edit` event per edit for each of them, grouped per
 * activity and UTC day in their notifications — several edits in a day are one notification. Sent
 * by the edit job's first page (its event ids are the edit's: a redelivered page adds nothing).
 * The newly mentioned are notified from the stream record itself (jobs/outbox-jobs.ts).
 */
import { activityIdOf } from '../../model/activity-id.js';
import { ticksFromIso } from '../../platform/clock.js';
import { interactedWith } from '../../stores/social-store.js';
import { enqueueJobs } from '../jobs/bus.js';
import { editDelivery, notifyJobs } from '../notifications/events.js';

/** Reactions and comments read per edit: the first this many of each are told. */
export const MAX_EDIT_NOTICES = 1000;

export async function noticeEdit(author: string, rk: bigint, version: number, editedAt: string): Promise<void> {
  const id = activityIdOf(author, rk);
  const users = await interactedWith(id, MAX_EDIT_NOTICES);
  const ticks = ticksFromIso(editedAt) ?? 0n;
  const jobs = notifyJobs(users.map((user) => editDelivery(user, author, id, version, ticks)));
  if (jobs.length === 0) return;
  const failed = await enqueueJobs(jobs);
  if (failed.length) throw new Error(`edit notices: ${failed.length} notify jobs not accepted`); // the page comes back
}
