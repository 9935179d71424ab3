/**
 * An edited activity's earlier versions in the feed table (model/activity-history.ts); the edit
 * itself — the original's and each copy's conditional update — is feed-store's (updateOriginal,
 * updateCopy). Every key comes from model/.
 *
 * Access patterns:
 *   history page                Query v#activityId, descending rk (newest first)
 *   history entry in / out      PutItem / DeleteItem by (v#activityId, version)
 *   history erased              a page of the partition's keys, batch-deleted
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { historyKey, historyPartition } from '../model/activity-history.js';
import { doc } from '../platform/clients.js';
import { deletePartitionPage } from '../platform/dynamo/partition.js';
import { type Item, mapPage, type Page, queryListPage } from '../platform/dynamo/query.js';
import { tableName } from '../platform/env.js';

const feed = () => tableName('feed');

/** Keep an earlier version (idempotent: the same version is the same entry). */
export async function putHistoryEntry(entry: Record<string, unknown>): Promise<void> {
  await doc.send(new PutCommand({ TableName: feed(), Item: entry }));
}

export async function deleteHistoryEntry(activityId: string, version: number): Promise<void> {
  await doc.send(new DeleteCommand({ TableName: feed(), Key: historyKey(activityId, version) }));
}

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
  return mapPage(page, (i) => i, (v) => v);
}

/** Delete up to `limit` of an activity's earlier versions (its delete, its author's erase). Returns how many. */
export const deleteHistoryPage = (activityId: string, limit: number): Promise<number> =>
  deletePartitionPage({ table: feed(), pk: historyPartition(activityId), sortKey: 'rk' }, limit);
