/**
 * An activity's history goes with it: its delete's purge job and its author's erase call this for
 * each original that was edited (version > 1: one never edited has no history, so no read).
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
