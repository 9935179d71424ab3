/**
 * GET /activities/{id}/history: the earlier versions of an activity, newest first, to whoever may
 * see the activity (404 otherwise, as GET /activities/{id}). A list like every other
 * (`{ items, next }`, list-page.ts); at most HISTORY_KEEP versions are kept.
 */
import { type ActivityVersion, isHistoryCursor, toActivityVersion } from '../../model/activity-history.js';
import { mapPage } from '../../platform/dynamo/query.js';
import { historyPage } from '../../stores/history-store.js';
import { afterCursor, type ListPage, listPageOf, type ListRequest } from '../list-page.js';
import { getActivityFor } from '../posting.js';

export async function activityHistory(viewer: string, id: string, req: ListRequest): Promise<ListPage<ActivityVersion>> {
  const before = afterCursor(req.cursor, isHistoryCursor);
  await getActivityFor(viewer, id);
  const page = await historyPage(id, req.limit, before === undefined ? undefined : Number(before));
  return listPageOf(
    mapPage(page, (i) => i, String),
    toActivityVersion,
  );
}
