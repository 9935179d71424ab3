/**
 * Everything a request by a user could write, as one comparable string: their timeline and home
 * feed, follow edges and lists, profile and foreignId markers. Equal before and after a batch of
 * refused requests means those requests wrote nothing.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { followEdgeKey } from '../../functions/model/follow-edge.js';
import { followListPartition } from '../../functions/model/follow-lists.js';
import { foreignIdKey } from '../../functions/model/foreign-id.js';
import { profileKey } from '../../functions/model/profile.js';
import { timelinePartition } from '../../functions/model/timeline-item.js';
import { doc, stack } from './local.js';

/** The partitions (table, pk) that hold what `user` owns or was written for them. */
function partitionsOf(user: string): [string, string][] {
  return [
    [stack.tableNames.feed, timelinePartition(user)],
    [stack.tableNames.feed, homeFeedPartition(user)],
    [stack.tableNames.graph, followEdgeKey(user, '').pk],
    [stack.tableNames.graph, followListPartition('followers', user)],
    [stack.tableNames.graph, followListPartition('following', user)],
    [stack.tableNames.graph, profileKey(user).pk],
    [stack.tableNames.graph, foreignIdKey(user, '').pk],
  ];
}

export async function snapshotUsers(users: readonly string[]): Promise<string> {
  const parts: unknown[] = [];
  for (const u of users) {
    for (const [table, pk] of partitionsOf(u)) {
      const { Items } = await doc.send(
        new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }),
      );
      parts.push([table, pk, Items]);
    }
  }
  return JSON.stringify(parts, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}
