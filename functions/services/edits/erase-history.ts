/**
 * An activity's history goes with it: its delete's purge job and its author's erase call this for
 * each original that was edited (version > 1: one never edited has no history, so no read). That
 * skip is sound on two counts: an entry is written only in the transaction that moves the original
 * off its version (stores/feed-store.ts editOriginal), so an original at version 1 has none — an
 * edit that failed left none behind; and callers pass the original as marked deleted (the purge's
 * tombstone, the erase's read after its mark), whose version no edit can change any more.
 */
import { HISTORY_KEEP } from '../../model/activity-history.js';
import { versionOf } from '../../model/timeline-item.js';
import { deleteHistoryPage } from '../../stores/history-store.js';

/** Keys deleted per round: the whole history and a few stragglers at once. */
const PAGE = HISTORY_KEEP * 5;

export async function eraseHistory(activityId: string, original: Record<string, unknown>): Promise<void> {
  if (versionOf(original) <= 1) return;
  while ((await deleteHistoryPage(activityId, PAGE)) === PAGE);
}
