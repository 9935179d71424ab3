/**
 * Editing an activity (PATCH /activities/{id}): the author — or an admin token, as anyone — merges
 * a patch into the original; it gets the next version and `editedAt`, and the version it replaces
 * goes into the history (model/activity-history.ts). The original's stream MODIFY then starts the
 * edit job that brings every copy to it (services/edits/copies.ts) and the notifications
 * (jobs/outbox-jobs.ts).
 *
 * Writes: one transaction (stores/feed-store.ts editOriginal) of the original's update, conditional
 * on the version read, and the history entry of that version — and, once the history is full, the
 * delete of its oldest entry. All or nothing, so the history holds only versions the original
 * really had: a stale `If-Match` (412), an edit that lost a race, a DELETE meanwhile or a crash
 * leave no entry behind. A transaction writes each item at twice the units: 4 write units per edit
 * (6 once the history is full) where two plain writes would cost 2 — the price of that guarantee;
 * no order of two plain writes gives it (the entry first strays when the update fails; the entry
 * after the update is lost when the call dies between them, and a retry cannot rebuild it: the
 * replaced version is gone from the original). A patch that changes nothing writes nothing, so a
 * retried request that already took effect writes nothing again. Someone else's, a deleted and an
 * expired activity are 404 and write nothing. An edit that loses a race re-reads and merges again.
 */
import { type Activity, type ActivityPatch, MAX_ATTRIBUTES, toActivity } from '../../model/activity.js';
import { droppedVersion, historyEntry, historyKey } from '../../model/activity-history.js';
import { parseActivityId } from '../../model/activity-id.js';
import { NotFoundError, PreconditionFailedError } from '../../model/domain-errors.js';
import { isVisibleOriginal, versionOf } from '../../model/timeline-item.js';
import { isoFromTicks, nowTicks } from '../../platform/clock.js';
import { AGAIN, RETRY, retrying } from '../../platform/retry.js';
import { editOriginal, getOriginal } from '../../stores/feed-store.js';
import { editedTags, tagsOfPost } from '../tags/post-tags.js';
import { etagMatches } from './etag.js';
import { editableOf } from '../../model/editable-fields.js';
import { applyPatch } from './merge-patch.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const noSuchActivity = () => new NotFoundError('No such activity.');

export interface EditRequest {
  readonly caller: string;
  readonly admin: boolean;
  readonly id: string;
  readonly patch: ActivityPatch;
  /** The request's `If-Match`, if any. */
  readonly ifMatch?: string;
  /**
   * The tags named apart from the content, replacing the original's (a bulk import's item, whose
   * fields become the ones given). Absent (PATCH): those the original named apart from its content stay.
   */
  readonly tags?: readonly string[];
}

const sameTags = (a: readonly string[], stored: unknown): boolean =>
  Array.isArray(stored) ? a.length === stored.length && a.every((t, i) => t === stored[i]) : a.length === 0;

/** The activity after the edit (unchanged, and nothing written, when the patch changes nothing). */
export async function editActivity(req: EditRequest): Promise<Activity> {
  const key = parseActivityId(req.id);
  // Someone else's is 404 as for a DELETE by a stranger who cannot see it: nothing to learn here.
  if (!key || (!req.admin && key.actor !== req.caller)) throw noSuchActivity();
  return retrying('edit of an activity', RETRY.request, async () => {
    const original = await getOriginal(key.actor, key.rk);
    if (!isVisibleOriginal(original, nowSeconds())) throw noSuchActivity();
    const version = versionOf(original!);
    if (req.ifMatch !== undefined && !etagMatches(req.ifMatch, version)) {
      throw new PreconditionFailedError(`The activity is at version ${version}, not the one If-Match names.`);
    }
    const { fields, changed } = applyPatch(editableOf(original!), req.patch, MAX_ATTRIBUTES);
    if (!changed && req.tags === undefined) return toActivity(original!);
    // The tags the new content carries (400 here writes nothing); the outbox retags from the MODIFY.
    const tags = req.tags === undefined ? editedTags(original!, fields.content) : tagsOfPost({ content: fields.content, tags: req.tags });
    if (!changed && sameTags(tags, original!.tags)) return toActivity(original!);
    const editedAt = isoFromTicks(nowTicks());
    const dropped = droppedVersion(version + 1);
    const state = { ...fields, ...(tags.length ? { tags } : {}), version: version + 1, editedAt };
    const history = { entry: historyEntry(original!, editedAt), ...(dropped !== undefined && { drop: historyKey(req.id, dropped) }) };
    const stored = await editOriginal(key.actor, key.rk, original!, state, history, nowSeconds());
    return stored ? toActivity(stored) : AGAIN; // edited or deleted meanwhile, or a lost race: read it again
  });
}
