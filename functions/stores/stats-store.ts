/**
 * The stats table: rollup rows, recent-activity entries and rollup commit marks. The only importer
 * of the DynamoDB client for it.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ACTIVITY_ENTRY_PROJECTION, activityEntriesIn, activityPartition, parseActivityEntry } from '../model/activity-entry.js';
import { parseRollupRow, ROLLUP_ROW_PROJECTION, type RollupRowValue } from '../model/rollup-row.js';
import { parseRollupCommit, ROLLUP_COMMIT_PROJECTION, rollupCommitsIn, type SegmentRange } from '../model/rollup-segment.js';
import { doc } from '../platform/clients.js';
import { BATCH_SIZE, batchWriteAll } from '../platform/dynamo/batch-write.js';
import { deletePartitionPage } from '../platform/dynamo/partition.js';
import { queryAll, queryPage } from '../platform/dynamo/query.js';
import { tableName } from '../platform/env.js';
import { forEachLimit } from '../platform/pool.js';

const table = () => tableName('stats');

export type StatItem = Record<string, string | number> & { pk: string; sk: string };

/**
 * Put every item (BatchWriteItem, 25 per call, 4 calls in flight; unprocessed items retried,
 * bounded). Not atomic: a failure leaves some written — callers write deterministic keys and write
 * again. Every call is let finish before the first failure is thrown, so no write of this attempt
 * lands after its retry began.
 */
export async function putStatItems(items: readonly StatItem[]): Promise<void> {
  const requests = items.map((Item) => ({ PutRequest: { Item } }));
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < requests.length) {
      const chunk = requests.slice(next, (next += BATCH_SIZE));
      await batchWriteAll(table(), chunk).catch((error: unknown) => void (failure ??= { error }));
    }
  };
  await Promise.all(Array.from({ length: 4 }, lane));
  if (failure) throw failure.error;
}

/** A commit mark (model/rollup-segment.ts). */
export async function putRollupCommit(item: StatItem): Promise<void> {
  await doc.send(new PutCommand({ TableName: table(), Item: item }));
}

/** The newest commit mark of a shard's partition (strongly consistent: the last write was ours). */
export async function newestRollupCommit(pk: string): Promise<SegmentRange | undefined> {
  const { items } = await queryPage({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ScanIndexForward: false,
    Limit: 1,
    ConsistentRead: true,
    ...ROLLUP_COMMIT_PROJECTION,
  });
  return items[0] ? parseRollupCommit(items[0]) : undefined;
}

/** The commit marks of a shard's segments that start inside `range`. */
export async function rollupCommitsWithin(pk: string, range: SegmentRange): Promise<SegmentRange[]> {
  const { lo, hi } = rollupCommitsIn(range);
  const items = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':pk': pk, ':lo': lo, ':hi': hi },
    ConsistentRead: true,
    ...ROLLUP_COMMIT_PROJECTION,
  });
  return items.map(parseRollupCommit);
}

/** A sort-key range of one rollup partition. */
export interface PartitionRead {
  readonly pk: string;
  readonly lo: string;
  readonly hi: string;
}

/** Every row of the given partition ranges (8 Queries in flight). */
export async function readRollupRows(reads: readonly PartitionRead[]): Promise<RollupRowValue[]> {
  const rows: RollupRowValue[] = [];
  await forEachLimit(reads, 8, async (r) => {
    const items = await queryAll({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
      ExpressionAttributeValues: { ':pk': r.pk, ':lo': r.lo, ':hi': r.hi },
      ...ROLLUP_ROW_PROJECTION,
    });
    rows.push(...items.map(parseRollupRow));
  });
  return rows;
}

/** A user's activity entries in buckets starting in [fromMs, toMs): nothing older, nothing later. */
export async function readActivityEntries(userId: string, fromMs: number, toMs: number) {
  const { lo, hi } = activityEntriesIn(fromMs, toMs);
  const items = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':pk': activityPartition(userId), ':lo': lo, ':hi': hi },
    ...ACTIVITY_ENTRY_PROJECTION,
  });
  return items.map(parseActivityEntry);
}

/** Delete up to `limit` of a user's activity-window entries (an erase). Returns how many. */
export const deleteActivityEntriesPage = (userId: string, limit: number): Promise<number> =>
  deletePartitionPage({ table: tableName('stats'), pk: activityPartition(userId), sortKey: 'sk' }, limit);
