/**
 * An edited activity's earlier versions in the feed table (model/activity-history.ts), as read
 * and erased. An entry is written (and the oldest dropped) only in the edit's own transaction with
 * the original's conditional update — feed-store's editOriginal, beside updateCopy — so no entry
 * exists for a version the original never left. Every key comes from model/.
 *
 * Access patterns:
 *   history page                Query v#activityId, descending rk (newest first)
 *   history erased              a page of the partition's keys, batch-deleted
 */
import { historyPartition } from '../model/activity-history.js';
import { deletePartitionPage } from '../platform/dynamo/partition.js';
import { type Item, mapPage, type Page, queryListPage } from '../platform/dynamo/query.js';
import { tableName } from '../platform/env.js';

const feed = () => tableName('feed');

/** Earlier versions of an activity, newest first, below version `before` if given. */
export async function historyPage(activityId: string, limit: number, before?: number): Promise<Page<Item, number>> {
  const page = await queryListPage(
    {
      TableName: feed(),
      KeyConditionExpression: before === undefined ? 'pk = :pk' : 'pk = :pk AND rk < :before',
      ExpressionAttributeValues: { ':pk': historyPartition(activityId), ...(before === undefined ? {} : { ':before': before }) },
      ScanIndexForward: false,
      Limit: limit,
    },
    (key) => Number(String(key.rk)),
  );
  return mapPage(
    page,
    (i) => i,
    (v) => v,
  );
}

/** Delete up to `limit` of an activity's earlier versions (its delete, its author's erase). Returns how many. */
export const deleteHistoryPage = (activityId: string, limit: number): Promise<number> =>
  deletePartitionPage({ table: feed(), pk: historyPartition(activityId), sortKey: 'rk' }, limit);
