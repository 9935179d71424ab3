/**
 * Seeds big follower sets fast (BatchWrite instead of one transaction per follow), writing the
 * same items `follow()` writes, built by the key model: edge, followers/following list entries,
 * the followee's counter. The followers' own `following` counters are not touched. Seeding does
 * not run the threshold check, so an author seeded past FANOUT_PULL_THRESHOLD stays push (the flag,
 * not the count, is what the worker obeys) — which is how the 1,000-follower tests fan out with a
 * threshold of 50.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { activeEdgeItem } from '../../functions/model/follow-edge.js';
import { followListItem } from '../../functions/model/follow-lists.js';
import { profileKey } from '../../functions/model/profile.js';
import { nowTicks } from '../../functions/platform/clock.js';
import { uid } from './ids.js';
import { shared } from './local.js';
import type { TestStack } from './stack-info.js';
import { writeItems } from './write-items.js';

/**
 * `count` new followers of `author` (ids `uid(prefix)`), on the shared stack or `on` a test file's own.
 *
 * @example
 *   const followers = await seedFollowers(author, 400, { on: own });
 */
export async function seedFollowers(
  author: string,
  count: number,
  opts: { prefix?: string; on?: Pick<TestStack, 'doc' | 'tableNames'> } = {},
): Promise<string[]> {
  const { doc, tableNames } = opts.on ?? shared;
  const followers = Array.from({ length: count }, () => uid(opts.prefix ?? 'f'));
  const items = followers.flatMap((f) => {
    const edge = activeEdgeItem(f, author, nowTicks(), false);
    return [edge, followListItem('followers', author, edge.order, f), followListItem('following', f, edge.order, author)];
  });
  await writeItems(doc, tableNames.graph, items);
  await doc.send(
    new UpdateCommand({
      TableName: tableNames.graph,
      Key: profileKey(author),
      UpdateExpression: 'ADD followers :n',
      ExpressionAttributeValues: { ':n': count },
    }),
  );
  return followers;
}
