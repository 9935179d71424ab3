/**
 * Edit helpers: PATCH an activity as a merge patch, and read what the feed table holds of it
 * (copies, the original, the history) straight from the table, on the shared stack or `on` a
 * test file's own.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { historyPartition } from '../../functions/model/activity-history.js';
import { parseActivityId } from '../../functions/model/activity-id.js';
import { homeFeedKey } from '../../functions/model/feed-copy.js';
import { timelineKey } from '../../functions/model/timeline-item.js';
import { api, type ApiOptions } from './api.js';
import { shared } from './local.js';
import type { TestStack } from './stack-info.js';

type Tables = Pick<TestStack, 'doc' | 'tableNames'>;

/** PATCH /activities/{id} with an `application/merge-patch+json` body. */
export const patchActivity = (id: string, patch: unknown, opts: ApiOptions & { ifMatch?: string }) =>
  api('PATCH', `/activities/${id}`, {
    ...opts,
    raw: JSON.stringify(patch),
    headers: { 'content-type': 'application/merge-patch+json', ...(opts.ifMatch ? { 'if-match': opts.ifMatch } : {}), ...opts.headers },
  });

/** `owner`'s stored copy of the activity `id`, if there is one. */
export async function storedCopy(owner: string, id: string, on: Tables = shared): Promise<Record<string, unknown> | undefined> {
  const { rk } = parseActivityId(id)!;
  const { Item } = await on.doc.send(new GetCommand({ TableName: on.tableNames.feed, Key: homeFeedKey(owner, rk), ConsistentRead: true }));
  return Item;
}

/** The stored original of `id` (tombstones included). */
export async function storedOriginal(id: string, on: Tables = shared): Promise<Record<string, unknown> | undefined> {
  const { actor, rk } = parseActivityId(id)!;
  const { Item } = await on.doc.send(new GetCommand({ TableName: on.tableNames.feed, Key: timelineKey(actor, rk), ConsistentRead: true }));
  return Item;
}

/** The versions of `id` kept in its history partition, ascending. */
export async function storedHistory(id: string, on: Tables = shared): Promise<number[]> {
  const { Items = [] } = await on.doc.send(
    new QueryCommand({
      TableName: on.tableNames.feed,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': historyPartition(id) },
      ConsistentRead: true,
    }),
  );
  return Items.map((i) => Number(String(i.rk)));
}

/** The version a stored item holds (absent: 1), or 0 for no item. */
export const versionHeld = (item: Record<string, unknown> | undefined): number =>
  item === undefined ? 0 : item.version === undefined ? 1 : Number(String(item.version));

/** The versions `owners` hold of `id` (0: no copy). */
export async function copyVersions(owners: readonly string[], id: string, on: Tables = shared): Promise<number[]> {
  return Promise.all(owners.map(async (o) => versionHeld(await storedCopy(o, id, on))));
}
