/**
 * The jobs an activity's change of tags needs (an edit): a tagRetract per tag it left — which
 * deletes that tag's entry and takes back the copies of its push followers, except where the post
 * reaches them by another road (its author, or a tag it keeps) — a tagFanout per tag it joined, and
 * a tagEdit per tag it kept (its followers' copies brought to the edit's version).
 * Pure, so the outbox (which has no table) derives them from the edit's stream MODIFY: an edit
 * that committed always gets its retag, whatever happens to the request that made it.
 */
import type { AttributeValue } from 'aws-lambda';
import { tagChanges, tagKeysOf } from '../../model/tags.js';
import type { Job } from '../jobs/jobs.js';

export function retagJobs(
  edit: { author: string; rk: string; version: number },
  image: Record<string, AttributeValue>,
  oldTags: readonly string[],
  newTags: readonly string[],
): Job[] {
  const { author, rk, version } = edit;
  const { removed, added } = tagChanges(oldTags, newTags);
  const keptTags = tagKeysOf(newTags);
  const stayed = keptTags.filter((tag) => !added.includes(tag));
  return [
    ...removed.map((tag): Job => ({ kind: 'tagRetract', author, rk, tag, keptTags })),
    ...added.map((tag): Job => ({ kind: 'tagFanout', author, rk, tag, image })),
    ...stayed.map((tag): Job => ({ kind: 'tagEdit', author, rk, tag, version })),
  ];
}
