/**
 * Seeds big follower sets fast (BatchWrite instead of one transaction per follow), writing the
 * same items `follow()` writes: edge, followers/following list entries, the followee's counter.
 * The followers' own `following` counters are not touched. Seeding does not run the threshold
 * check, so an author seeded past FANOUT_PULL_THRESHOLD stays push (the flag, not the count, is
 * what the worker obeys) — which is how the 1,000-follower tests fan out with a threshold of 50.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { activeEdgeItem } from '../../functions/model/follow-edge.js';
import { followListItem } from '../../functions/model/follow-lists.js';
import { profileKey } from '../../functions/model/profile.js';
import { nowTicks } from '../../functions/platform/clock.js';
import { doc, stack, uid } from './local.js';
import { writeItems } from './write-items.js';

export async function seedFollowers(author: string, count: number, prefix = 'f'): Promise<string[]> {
  const followers = Array.from({ length: count }, () => uid(prefix));
  const items = followers.flatMap((f) => {
    const edge = activeEdgeItem(f, author, nowTicks(), false);
    return [edge, followListItem('followers', author, edge.order, f), followListItem('following', f, edge.order, author)];
  });
  await writeItems(stack.tableNames.graph, items);
  await doc.send(
    new UpdateCommand({
      TableName: stack.tableNames.graph,
      Key: profileKey(author),
      UpdateExpression: 'ADD followers :n',
      ExpressionAttributeValues: { ':n': count },
    }),
  );
  return followers;
}
