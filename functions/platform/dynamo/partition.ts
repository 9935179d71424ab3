/**
 * Whole-partition plumbing for erasing a user: read a page of one partition's keys and delete
 * them in batches. Bounded per call, so a caller resumes from
 * where it stopped (a job re-enqueues itself) instead of looping without end.
 */
import { batchWriteAll } from './batch-write.js';
import { type Item, queryPage } from './query.js';

export interface PartitionSpec {
  readonly table: string;
  readonly pk: string;
  /** The table's sort key name (`rk` in the feed table, `sk` elsewhere). */
  readonly sortKey: 'rk' | 'sk';
}

/** Delete up to `limit` items of the partition; returns how many it deleted (fewer than limit: it is empty). */
export async function deletePartitionPage(spec: PartitionSpec, limit: number): Promise<number> {
  const keys = await partitionKeys(spec, limit);
  await batchWriteAll(
    spec.table,
    keys.map((Key) => ({ DeleteRequest: { Key } })),
  );
  return keys.length;
}

/** Up to `limit` keys of the partition, in sort order, strongly consistent. */
export async function partitionKeys(spec: PartitionSpec, limit: number): Promise<Item[]> {
  const page = await queryPage({
    TableName: spec.table,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': spec.pk },
    ProjectionExpression: `pk, ${spec.sortKey}`,
    ConsistentRead: true,
    Limit: limit,
  });
  return page.items;
}
