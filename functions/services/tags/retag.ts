/**
 * When an activity's tags change (an edit): what the tags' feeds and the tag followers' home feeds
 * must do. A tag the activity leaves: its entry goes at once, and a tagRetract job takes the copies
 * of that tag's push followers — except where the post reaches them by another road (its author,
 * or a tag it keeps). A tag it joins: a tagFanout job, as for a new post (the entry, the trend count
 * of the post's own hour, the copies).
 *
 * @example
 *   // after the original was updated in place (same rk), with its new image:
 *   await retag(updatedOriginal, oldTags, newTags);
 * An edit's retag comes from its stream MODIFY instead (jobs/outbox.ts, retag-jobs.ts).
 */
import { tagChanges } from '../../model/tags.js';
import { imageOfItem } from '../../platform/dynamo/images.js';
import { deleteTagEntries } from '../../stores/tag-store.js';
import { enqueueJobs } from '../jobs/bus.js';
import { retagJobs } from './retag-jobs.js';

/** The original as stored after the edit: its key, author and fields (`tags` the new ones). */
export interface RetaggedOriginal {
  readonly rk: bigint;
  readonly actor: string;
  readonly [field: string]: unknown;
}

export async function retag(original: RetaggedOriginal, oldTags: readonly string[], newTags: readonly string[]): Promise<void> {
  const { removed, added } = tagChanges(oldTags, newTags);
  if (removed.length === 0 && added.length === 0) return;
  if (removed.length) await deleteTagEntries(removed.map((tag) => ({ tag, rk: original.rk })));
  const { pk: _pk, expiresAt: _e, ...fields } = original;
  const image = added.length ? imageOfItem({ ...fields, tags: [...newTags] }) : {};
  const failed = await enqueueJobs(retagJobs(original.actor, String(original.rk), image, oldTags, newTags));
  if (failed.length) throw new Error(`could not enqueue ${failed.length} retag jobs`);
}
