/**
 * Edits in the feed table: the original's conditional update, each copy's conditional update, and
 * the activity's earlier versions (model/activity-history.ts). Every key comes from model/.
 *
 * Access patterns:
 *   edit the original           UpdateItem t#author/rk, conditioned on its version (no other read)
 *   edit a copy                 UpdateItem f#owner/rk, conditioned on the copy existing with an
 *                               older version: never creates a copy, never lowers one
 *   history page                Query v#activityId, descending rk (newest first)
 *   history entry in / out      PutItem / DeleteItem by (v#activityId, version)
 *   history erased              a page of the partition's keys, batch-deleted
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AttributeValue } from '../model/activity.js';
import { historyKey, historyPartition } from '../model/activity-history.js';
import { homeFeedKey, WRITTEN_ATTRIBUTE } from '../model/feed-copy.js';
import { timelineKey } from '../model/timeline-item.js';
import { doc } from '../platform/clients.js';
import { isConditionalCheckFailed } from '../platform/dynamo/errors.js';
import { deletePartitionPage } from '../platform/dynamo/partition.js';
import { type Item, mapPage, type Page, queryListPage } from '../platform/dynamo/query.js';
import { tableName } from '../platform/env.js';

const feed = () => tableName('feed');

/** What an edit sets: the editable fields (absent = removed), the new version and when. */
export interface EditedState {
  readonly content?: string;
  readonly object?: string;
  readonly attributes?: Readonly<Record<string, AttributeValue>>;
  readonly version: number;
  readonly editedAt: string;
}

const EDITABLE = ['content', 'object', 'attributes'] as const;

/**
 * SET the present editable fields, version and editedAt (and, for a copy, when it was written: the
 * realtime catch-up's `seq`); REMOVE the absent editable fields.
 */
function editExpression(state: EditedState, written?: bigint) {
  const names: Record<string, string> = { '#version': 'version', '#editedAt': 'editedAt' };
  const values: Record<string, unknown> = { ':version': state.version, ':editedAt': state.editedAt };
  const set = ['#version = :version', '#editedAt = :editedAt'];
  if (written !== undefined) {
    names['#w'] = WRITTEN_ATTRIBUTE;
    values[':w'] = written;
    set.push('#w = :w');
  }
  const remove: string[] = [];
  for (const field of EDITABLE) {
    names[`#${field}`] = field;
    if (state[field] === undefined) remove.push(`#${field}`);
    else {
      set.push(`#${field} = :${field}`);
      values[`:${field}`] = state[field];
    }
  }
  const expression = `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`;
  return { UpdateExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/**
 * Apply an edit to `author`'s original at `rk` if it is still visible and still at version
 * `expected` (absent = 1). Returns the item as now stored, or undefined when the condition failed.
 */
export async function updateOriginal(author: string, rk: bigint, expected: number, state: EditedState, nowSeconds: number): Promise<Item | undefined> {
  const e = editExpression(state);
  try {
    const { Attributes } = await doc.send(
      new UpdateCommand({
        TableName: feed(),
        Key: timelineKey(author, rk),
        ...e,
        ConditionExpression:
          'attribute_exists(pk) AND attribute_not_exists(deletedAt) AND (attribute_not_exists(expiresAt) OR expiresAt > :now) AND ' +
          (expected === 1 ? '(attribute_not_exists(#version) OR #version = :expected)' : '#version = :expected'),
        ExpressionAttributeValues: { ...e.ExpressionAttributeValues, ':now': nowSeconds, ':expected': expected },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as Item;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

/**
 * Bring `owner`'s copy at `rk` to `state` if the copy exists at an older version. Returns whether
 * it changed (false: no copy there, or it is as new already). One write unit either way.
 */
export async function updateCopy(owner: string, rk: bigint, state: EditedState, written: bigint): Promise<boolean> {
  const e = editExpression(state, written);
  try {
    await doc.send(
      new UpdateCommand({
        TableName: feed(),
        Key: homeFeedKey(owner, rk),
        ...e,
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#version) OR #version < :version)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

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
