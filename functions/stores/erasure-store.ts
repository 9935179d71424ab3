/**
 * A user's erasure in the graph table: the erase mark (model/erasure.ts) and its follower-shard
 * copies (services/erase/). The one store that writes erase marks; the follow transactions only
 * check them. What the erase deletes wholesale, each owner deletes (follow-store, feed-store).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { erasureKey, erasureShardKey } from '../model/erasure.js';
import { FOLLOWER_SHARDS, parseProfile, type Profile, PROFILE_PREFIX, profileKey } from '../model/profile.js';
import { doc } from '../platform/clients.js';
import { batchGetAll } from '../platform/dynamo/batch-get.js';
import { batchWriteAll } from '../platform/dynamo/batch-write.js';
import { isConditionalCheckFailed } from '../platform/dynamo/dynamo-errors.js';
import { queryPage } from '../platform/dynamo/query.js';
import { tableName } from '../platform/env.js';

const graph = () => tableName('graph');

/**
 * The erase mark (model/erasure.ts): `done` once the job finished. Starting never takes back a
 * finished mark, so a repeated erase keeps answering 404 while it runs again.
 */
export async function markErased(userId: string, done: boolean): Promise<void> {
  // The shards' copies first (follows check those): by the time the mark says "erasing", they all do.
  if (!done) {
    await batchWriteAll(
      graph(),
      Array.from({ length: FOLLOWER_SHARDS }, (_, s) => ({ PutRequest: { Item: erasureShardKey(userId, s) } })),
    );
  }
  try {
    await doc.send(
      new PutCommand({ TableName: graph(), Item: { ...erasureKey(userId), done }, ...(done ? {} : { ConditionExpression: 'attribute_not_exists(pk)' }) }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/**
 * The user's profile and whether an erase of them finished: the profile's Query and the mark's
 * GetItem in parallel (2 read units, strongly consistent).
 */
export async function profileAndErasure(userId: string): Promise<{ profile: Profile; erased: boolean }> {
  const [items, mark] = await Promise.all([
    queryPage({
      TableName: graph(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': profileKey(userId).pk, ':p': PROFILE_PREFIX },
      ConsistentRead: true,
    }).then((page) => page.items),
    doc.send(new GetCommand({ TableName: graph(), Key: erasureKey(userId), ConsistentRead: true })).then((out) => out.Item),
  ]);
  return { profile: parseProfile(items), erased: mark?.done === true && items.length === 0 };
}

/** Which of `userIds` have an erase mark, finished or not (BatchGet, 100 keys per call). */
export async function erasureMarked(userIds: readonly string[]): Promise<Set<string>> {
  const byPk = new Map(userIds.map((u) => [erasureKey(u).pk, u]));
  const found = await batchGetAll(graph(), userIds.map(erasureKey));
  return new Set(found.map((item) => byPk.get(String(item.pk))!).filter((u) => u !== undefined));
}
