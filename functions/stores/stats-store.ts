/**
 * The stats table: rollup rows and recent-activity entries. The only importer of the DynamoDB
 * client for it.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ACTIVITY_ENTRY_PROJECTION, activityEntriesIn, activityPartition, parseActivityEntry } from '../model/activity-entry.js';
import { parseRollupRow, ROLLUP_ROW_PROJECTION, type RollupRowValue } from '../model/rollup-row.js';
import { doc } from '../platform/clients.js';
import { cancellationCodes } from '../platform/dynamo/errors.js';
import { deletePartitionPage } from '../platform/dynamo/partition.js';
import { queryAll } from '../platform/dynamo/query.js';
import { tableName } from '../platform/env.js';
import { forEachLimit } from '../platform/pool.js';

const table = () => tableName('stats');

export type StatItem = Record<string, string | number> & { pk: string; sk: string };

export type ChunkOutcome = { ok: true } | { ok: false; claimedIndexes: number[] } | { ok: false; error: unknown };

/**
 * One transaction: every claim conditioned on not existing, plus the rows. All or nothing. On a
 * cancellation caused by claims that already exist, says which (their indexes in `claims`).
 */
export async function writeClaimsAndRows(claims: readonly StatItem[], rows: readonly StatItem[]): Promise<ChunkOutcome> {
  try {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          ...claims.map((Item) => ({ Put: { TableName: table(), Item, ConditionExpression: 'attribute_not_exists(pk)' } })),
          ...rows.map((Item) => ({ Put: { TableName: table(), Item } })),
        ],
      }),
    );
    return { ok: true };
  } catch (error) {
    const codes = cancellationCodes(error);
    const claimedIndexes = (codes ?? []).flatMap((code, i) => (code === 'ConditionalCheckFailed' && i < claims.length ? [i] : []));
    return claimedIndexes.length ? { ok: false, claimedIndexes } : { ok: false, error };
  }
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
