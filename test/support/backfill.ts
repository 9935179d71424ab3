/**
 * Knowing a follow's backfill is over, without guessing a delay: the follow edge carries
 * `backfillPending` from the follow until the backfill job's last step (after its copy writes and
 * re-checks), and never carries it when no backfill was queued (a muted or pulled followee, a
 * followee with no posts). So once the flag is absent, a test can assert what the backfill did not write.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { followEdgeKey } from '../../functions/model/follow-edge.js';
import { shared } from './local.js';
import type { TestStack } from './stack-info.js';

/** `follower`'s edge to `followee` owes no backfill: none was queued, or it ran to its end. */
export async function noBackfillOwed(follower: string, followee: string, on: Pick<TestStack, 'doc' | 'tableNames'> = shared): Promise<boolean> {
  const { Item } = await on.doc.send(new GetCommand({ TableName: on.tableNames.graph, Key: followEdgeKey(follower, followee), ConsistentRead: true }));
  return Item !== undefined && Item.backfillPending === undefined;
}
