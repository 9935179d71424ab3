/**
 * Editing an activity (PATCH /activities/{id}): the author — or an admin token, as anyone — merges
 * a patch into the original; it gets the next version and `editedAt`, and the version it replaces
 * goes into the history (model/activity-history.ts). The original's stream MODIFY then starts the
 * edit job that brings every copy to it (services/edits/copies.ts) and the notifications
 * (jobs/outbox.ts).
 *
 * Writes: the history entry, then the original (conditional on the version read): two write units,
 * three once the history is full (the oldest entry goes). A patch that changes nothing writes
 * nothing. Someone else's, a deleted and an expired activity are 404 and write nothing; a stale
 * `If-Match` is 412. An edit that loses a race to another re-reads and merges again; the history
 * entry it wrote holds the version both read, which the winner replaced too (same key, same item).
 */
import { type Activity, type ActivityPatch, MAX_ATTRIBUTES, toActivity } from '../../model/activity.js';
import { droppedVersion, historyEntry } from '../../model/activity-history.js';
import { parseActivityId } from '../../model/activity-id.js';
import { NotFoundError, PreconditionFailedError } from '../../model/errors.js';
import { isVisibleOriginal, versionOf } from '../../model/timeline-item.js';
import { isoFromTicks, nowTicks } from '../../platform/clock.js';
import { AGAIN, RETRY, retrying } from '../../platform/retry.js';
import { deleteHistoryEntry, putHistoryEntry } from '../../stores/history-store.js';
import { getOriginal, updateOriginal } from '../../stores/feed-store.js';
import { editedTags } from '../tags/post-tags.js';
import { etagMatches } from './etag.js';
import { applyPatch, editableOf } from './merge-patch.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const noSuchActivity = () => new NotFoundError('No such activity.');

export interface EditRequest {
  readonly caller: string;
  readonly admin: boolean;
  readonly id: string;
  readonly patch: ActivityPatch;
  /** The request's `If-Match`, if any. */
  readonly ifMatch?: string;
}

/** The activity after the edit (unchanged, and nothing written, when the patch changes nothing). */
export async function editActivity(req: EditRequest): Promise<Activity> {
  const key = parseActivityId(req.id);
  // Someone else's is 404 as for a DELETE by a stranger who cannot see it: nothing to learn here.
  if (!key || (!req.admin && key.actor !== req.caller)) throw noSuchActivity();
  let wrote: number | undefined; // the history entry this call wrote, if it did
  return retrying('edit of an activity', RETRY.request, async () => {
    const original = await getOriginal(key.actor, key.rk);
    if (!isVisibleOriginal(original, nowSeconds())) {
      // Deleted under a failed attempt: the entry it wrote is the deleted activity's (the purge may have passed).
      if (wrote !== undefined) await deleteHistoryEntry(req.id, wrote);
      throw noSuchActivity();
    }
    const version = versionOf(original!);
    if (req.ifMatch !== undefined && !etagMatches(req.ifMatch, version)) {
      throw new PreconditionFailedError(`The activity is at version ${version}, not the one If-Match names.`);
    }
    const { fields, changed } = applyPatch(editableOf(original!), req.patch, MAX_ATTRIBUTES);
    if (!changed) return toActivity(original!);
    // The tags the new content carries (400 here writes nothing); the outbox retags from the MODIFY.
    const tags = editedTags(original!, fields.content);
    const editedAt = isoFromTicks(nowTicks());
    await putHistoryEntry(historyEntry(original!, editedAt));
    wrote = version;
    const stored = await updateOriginal(key.actor, key.rk, version, { ...fields, ...(tags.length ? { tags } : {}), version: version + 1, editedAt }, nowSeconds());
    if (!stored) return AGAIN; // edited or deleted meanwhile: read it again
    const dropped = droppedVersion(version + 1);
    if (dropped !== undefined) await deleteHistoryEntry(req.id, dropped);
    return toActivity(stored);
  });
}
