/**
 * What a data-model migration reads and writes: the version item and the runs' checkpoints
 * (model/data-model.ts), pages of a parallel Scan, a whole partition, and the writes a plan asks
 * for — unconditional puts and deletes batched (BatchWriteItem), conditional ones one call each
 * (a failed condition means already done or overtaken by the API: skipped), transactions through
 * transact(). Any table: a migration step names the one it scans.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableId } from '../../lib/defs/tables.js';
import {
  checkpointItem,
  DATA_MODEL_PARTITION,
  dataModelKey,
  migrationCheckpointPrefix,
  parseCheckpoint,
  parseDataModelVersion,
  type SegmentCheckpoint,
} from '../model/data-model.js';
import { doc } from '../platform/clients.js';
import { batchWriteAll, type WriteRequest } from '../platform/dynamo/batch-write.js';
import { isConditionalCheckFailed } from '../platform/dynamo/dynamo-errors.js';
import { type Item, type Page, queryAll } from '../platform/dynamo/query.js';
import { transact, type TxItem } from '../platform/dynamo/transact.js';
import { tableName } from '../platform/env.js';
import { forEachLimit } from '../platform/pool.js';
import { AGAIN, RETRY, retrying } from '../platform/retry.js';
import type { ConditionCheck, MigrationWrite, WriteCondition } from '../model/migration-write.js';

const graph = () => tableName('graph');

/** The model the tables hold; undefined when no version item exists (data from before v3 kept it, or none). */
export async function readDataModelVersion(): Promise<number | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: graph(), Key: dataModelKey(), ConsistentRead: true }));
  return parseDataModelVersion(Item);
}

/** Records `version`, never lowering it (an older release's runner cannot move it back). */
export async function writeDataModelVersion(version: number): Promise<void> {
  try {
    await doc.send(
      new PutCommand({
        TableName: graph(),
        Item: { ...dataModelKey(), version },
        ConditionExpression: 'attribute_not_exists(pk) OR version < :v',
        ExpressionAttributeValues: { ':v': version },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

export async function readCheckpoints(to: number): Promise<SegmentCheckpoint[]> {
  const items = await queryAll({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :run)',
    ExpressionAttributeValues: { ':pk': DATA_MODEL_PARTITION, ':run': migrationCheckpointPrefix(to) },
    ConsistentRead: true,
  });
  return items.map(parseCheckpoint);
}

/**
 * Saves a segment's progress, unless another runner of the same segment (the deploy's job beside
 * `npm run migrate`) finished it already: a done segment never goes back. False then.
 */
export async function saveCheckpoint(to: number, checkpoint: SegmentCheckpoint): Promise<boolean> {
  try {
    await doc.send(
      new PutCommand({
        TableName: graph(),
        Item: checkpointItem(to, checkpoint),
        ConditionExpression: 'attribute_not_exists(pk) OR done = :no',
        ExpressionAttributeValues: { ':no': false },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    return false;
  }
}

/** One page of one segment of a parallel Scan (eventually consistent: half the read units). */
export async function scanPage(table: TableId, segment: number, totalSegments: number, startKey: Item | undefined, limit: number): Promise<Page<Item, Item>> {
  const out = await doc.send(
    new ScanCommand({ TableName: tableName(table), Segment: segment, TotalSegments: totalSegments, ExclusiveStartKey: startKey, Limit: limit }),
  );
  return { items: (out.Items ?? []) as Item[], last: out.LastEvaluatedKey as Item | undefined };
}

/** Every item of one partition, strongly consistent (a plan decides on all of them at once). */
export function readPartition(table: TableId, partitionKeyName: string, pk: string): Promise<Item[]> {
  return queryAll({
    TableName: tableName(table),
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': partitionKeyName },
    ExpressionAttributeValues: { ':pk': pk },
    ConsistentRead: true,
  } satisfies ConstructorParameters<typeof QueryCommand>[0]);
}

/** How a plan's writes went: sent (the calls' items), and skipped because a condition failed. */
export interface AppliedWrites {
  readonly sent: number;
  readonly skipped: number;
}

/**
 * Applies planned writes. Unordered (the items' own plans, independent of each other):
 * unconditional puts/deletes batched, each key once, the rest 8 at a time. Ordered (a partition's
 * plan, whose later writes assume the earlier ones): one after another.
 */
export async function applyWrites(table: TableId, writes: readonly MigrationWrite[], opts: { ordered?: boolean } = {}): Promise<AppliedWrites> {
  if (opts.ordered) {
    let total = { sent: 0, skipped: 0 };
    for (const w of writes) {
      const one = await applyWrites(table, [w]);
      total = { sent: total.sent + one.sent, skipped: total.skipped + one.skipped };
    }
    return total;
  }
  const concurrency = 8;
  const name = tableName(table);
  const batched = new Map<string, WriteRequest>();
  const single: MigrationWrite[] = [];
  for (const w of writes) {
    if ('put' in w && !w.condition) batched.set(JSON.stringify(['k', keyOf(w.put)]), { PutRequest: { Item: { ...w.put } } });
    else if ('delete' in w && !w.condition) batched.set(JSON.stringify(['k', keyOf(w.delete)]), { DeleteRequest: { Key: { ...w.delete } } });
    else single.push(w);
  }
  let skipped = 0;
  await batchWriteAll(name, [...batched.values()]);
  await forEachLimit(single, concurrency, async (w) => {
    if ('transaction' in w) {
      const parts = w.transaction.map((part, i) => [`w${i}`, txItem(name, part)] as const);
      const outcome = await retrying(`migration transaction on ${name}`, RETRY.request, async () => {
        const out = await transact(parts);
        return !out.ok && out.conflict && out.failed.size === 0 ? AGAIN : out;
      });
      if (!outcome.ok) skipped++;
      return;
    }
    try {
      await sendSingle(name, w);
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      skipped++;
    }
  });
  return { sent: batched.size + single.reduce((n, w) => n + ('transaction' in w ? w.transaction.filter((p) => !('check' in p)).length : 1), 0), skipped };
}

/** The key part of an item, for de-duplicating a batch (pk with sk or rk). */
const keyOf = (item: Readonly<Record<string, unknown>>) => [String(item.pk), String(item.sk ?? item.rk ?? '')];

function conditionParts(c: WriteCondition | undefined) {
  if (!c) return {};
  return {
    ConditionExpression: c.expression,
    ...(c.names ? { ExpressionAttributeNames: { ...c.names } } : {}),
    ...(c.values ? { ExpressionAttributeValues: { ...c.values } } : {}),
  };
}

/** SET/REMOVE from plain attribute maps, with the condition's names and values merged in. */
function updateParts(w: Extract<MigrationWrite, { update: unknown }>) {
  const names: Record<string, string> = { ...(w.condition?.names ?? {}) };
  const values: Record<string, unknown> = { ...(w.condition?.values ?? {}) };
  const sets = Object.entries(w.set ?? {}).map(([attr, value], i) => {
    names[`#s${i}`] = attr;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  const removes = (w.remove ?? []).map((attr, i) => {
    names[`#r${i}`] = attr;
    return `#r${i}`;
  });
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
  return {
    Key: { ...w.update },
    UpdateExpression: expression,
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    ...(w.condition ? { ConditionExpression: w.condition.expression } : {}),
  };
}

type SingleWrite = Exclude<MigrationWrite, { transaction: unknown }>;

async function sendSingle(TableName: string, w: SingleWrite): Promise<void> {
  if ('put' in w) await doc.send(new PutCommand({ TableName, Item: { ...w.put }, ...conditionParts(w.condition) }));
  else if ('delete' in w) await doc.send(new DeleteCommand({ TableName, Key: { ...w.delete }, ...conditionParts(w.condition) }));
  else await doc.send(new UpdateCommand({ TableName, ...updateParts(w) }));
}

function txItem(TableName: string, w: SingleWrite | ConditionCheck): TxItem {
  if ('check' in w) return { ConditionCheck: { TableName, Key: { ...w.check }, ...conditionParts(w.condition) } };
  if ('put' in w) return { Put: { TableName, Item: { ...w.put }, ...conditionParts(w.condition) } };
  if ('delete' in w) return { Delete: { TableName, Key: { ...w.delete }, ...conditionParts(w.condition) } };
  return { Update: { TableName, ...updateParts(w) } };
}
