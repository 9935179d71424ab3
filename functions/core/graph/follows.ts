/**
 * The follow graph: follow / unfollow as one transaction each, so the edge, both lists and both
 * counters change together and the counters stay exact under any concurrency (the edge's
 * condition makes a duplicate follow or unfollow a no-op, never a second increment).
 *
 * Edge states: absent → active (follow) → gone (unfollow) → active (follow again) …
 * `backfillPending` / `cleanupPending` mark a follow/unfollow whose backfill/cleanup job has not
 * finished; a repeated PUT/DELETE re-sends the job, so a crash between commit and enqueue is
 * repaired by the client's retry (both requests are idempotent).
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tables } from '../../../lib/defs/tables.js';
import { doc } from '../clients.js';
import { requireEnv } from '../env.js';
import { ValidationError } from '../errors.js';
import {
  followEdgeKey,
  followerListKey,
  followersPartition,
  followingListKey,
  followingPartition,
  followOrder,
  profileKey,
  pulledKey,
  userOfListSortKey,
} from '../keys.js';
import { nowTicks } from '../ticks.js';

const graphTable = requireEnv(tables.graph.envVar);
const MAX_TX_ATTEMPTS = 8;

export interface Edge {
  readonly state: 'active' | 'gone';
  readonly order: string;
  /** Ticks of the follow, as a decimal string. */
  readonly followedAt: string;
  readonly backfillPending?: boolean;
  readonly cleanupPending?: boolean;
}

export interface FollowResult {
  /** False when the edge already existed (idempotent repeat). */
  readonly created: boolean;
  /** The followee is pulled: no backfill needed (reads merge their posts). */
  readonly pulled: boolean;
  readonly backfillPending: boolean;
}

export interface UnfollowResult {
  readonly removed: boolean;
  readonly cleanupPending: boolean;
}

export async function getEdge(follower: string, followee: string): Promise<Edge | undefined> {
  const { Item } = await doc.send(
    new GetCommand({ TableName: graphTable, Key: followEdgeKey(follower, followee), ConsistentRead: true }),
  );
  return Item ? (Item as unknown as Edge) : undefined;
}

/** Whether `author` is currently pulled (not fanned out). */
export async function isPulled(author: string): Promise<boolean> {
  const { Item } = await doc.send(
    new GetCommand({ TableName: graphTable, Key: profileKey(author), ConsistentRead: true, ProjectionExpression: 'pulled' }),
  );
  return Item?.pulled === true;
}

export async function follow(follower: string, followee: string): Promise<FollowResult> {
  if (follower === followee) {
    throw new ValidationError('You cannot follow yourself.', [{ field: 'path.userId', message: 'must not be the caller' }]);
  }
  for (let attempt = 1; ; attempt++) {
    const pulled = await isPulled(followee);
    const ticks = nowTicks();
    const order = followOrder(ticks);
    try {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: graphTable,
                Item: { ...followEdgeKey(follower, followee), state: 'active', order, followedAt: ticks.toString(), ...(pulled ? {} : { backfillPending: true }) },
                ConditionExpression: 'attribute_not_exists(pk) OR #state = :gone',
                ExpressionAttributeNames: { '#state': 'state' },
                ExpressionAttributeValues: { ':gone': 'gone' },
              },
            },
            { Put: { TableName: graphTable, Item: { ...followerListKey(followee, order, follower), userId: follower } } },
            { Put: { TableName: graphTable, Item: { ...followingListKey(follower, order, followee), userId: followee } } },
            {
              // The pulled flag read above must still hold, so the pulled set stays in step with it.
              Update: {
                TableName: graphTable,
                Key: profileKey(followee),
                UpdateExpression: 'ADD followers :one',
                ConditionExpression: pulled ? 'pulled = :true' : 'attribute_not_exists(pulled) OR pulled = :false',
                ExpressionAttributeValues: { ':one': 1, ...(pulled ? { ':true': true } : { ':false': false }) },
              },
            },
            {
              Update: {
                TableName: graphTable,
                Key: profileKey(follower),
                UpdateExpression: 'ADD following :one',
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
            ...(pulled ? [{ Put: { TableName: graphTable, Item: { ...pulledKey(follower, followee) } } }] : []),
          ],
        }),
      );
      return { created: true, pulled, backfillPending: !pulled };
    } catch (error) {
      const reasons = cancellationCodes(error);
      if (reasons?.[0] === 'ConditionalCheckFailed') {
        const edge = await getEdge(follower, followee);
        if (edge?.state === 'active') return { created: false, pulled, backfillPending: edge.backfillPending === true };
      }
      if (!reasons || attempt >= MAX_TX_ATTEMPTS) throw error;
      await backoff(attempt); // pulled flag changed, a conflicting transaction, or the edge flipped: retry
    }
  }
}

export async function unfollow(follower: string, followee: string): Promise<UnfollowResult> {
  for (let attempt = 1; ; attempt++) {
    const edge = await getEdge(follower, followee);
    if (!edge) return { removed: false, cleanupPending: false };
    if (edge.state === 'gone') return { removed: false, cleanupPending: edge.cleanupPending === true };
    try {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: graphTable,
                Key: followEdgeKey(follower, followee),
                UpdateExpression: 'SET #state = :gone, cleanupPending = :true REMOVE backfillPending',
                ConditionExpression: '#state = :active AND #order = :order',
                ExpressionAttributeNames: { '#state': 'state', '#order': 'order' },
                ExpressionAttributeValues: { ':gone': 'gone', ':active': 'active', ':order': edge.order, ':true': true },
              },
            },
            { Delete: { TableName: graphTable, Key: followerListKey(followee, edge.order, follower) } },
            { Delete: { TableName: graphTable, Key: followingListKey(follower, edge.order, followee) } },
            { Delete: { TableName: graphTable, Key: pulledKey(follower, followee) } },
            {
              Update: {
                TableName: graphTable,
                Key: profileKey(followee),
                UpdateExpression: 'ADD followers :minus',
                ExpressionAttributeValues: { ':minus': -1 },
              },
            },
            {
              Update: {
                TableName: graphTable,
                Key: profileKey(follower),
                UpdateExpression: 'ADD following :minus',
                ExpressionAttributeValues: { ':minus': -1 },
              },
            },
          ],
        }),
      );
      return { removed: true, cleanupPending: true };
    } catch (error) {
      if (!cancellationCodes(error) || attempt >= MAX_TX_ATTEMPTS) throw error;
      await backoff(attempt); // raced another follow/unfollow of the same edge: re-read and retry
    }
  }
}

/** Clears a pending flag once its job finished, unless the edge moved on meanwhile. */
export async function clearPending(
  follower: string,
  followee: string,
  flag: 'backfillPending' | 'cleanupPending',
  whileState: Edge['state'],
): Promise<void> {
  try {
    await doc.send(
      new UpdateCommand({
        TableName: graphTable,
        Key: followEdgeKey(follower, followee),
        UpdateExpression: `REMOVE ${flag}`,
        ConditionExpression: '#state = :state',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':state': whileState },
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}

// ---- lists ------------------------------------------------------------------------------------

export interface FollowListItem {
  readonly userId: string;
  /** RFC 3339 time of the follow is derivable from the order; the cursor is what paging needs. */
}

export interface FollowPage {
  readonly userIds: string[];
  /** Sort key of the last item, when there may be more. */
  readonly cursor?: string;
}

export type FollowList = 'followers' | 'following';

/** One page of a user's followers or followings, newest follow first. */
export async function listFollows(
  which: FollowList,
  userId: string,
  limit: number,
  after?: string,
): Promise<FollowPage> {
  const partition = which === 'followers' ? followersPartition(userId) : followingPartition(userId);
  const { Items = [], LastEvaluatedKey } = await doc.send(
    new QueryCommand({
      TableName: graphTable,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ProjectionExpression: 'pk, sk',
      Limit: limit,
      ...(after ? { ExclusiveStartKey: { pk: partition, sk: after } } : {}),
    }),
  );
  return {
    userIds: Items.map((i) => userOfListSortKey(i.sk as string)),
    cursor: LastEvaluatedKey ? (LastEvaluatedKey.sk as string) : undefined,
  };
}

function cancellationCodes(error: unknown): (string | undefined)[] | undefined {
  if (!(error instanceof TransactionCanceledException) && (error as Error).name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
  return reasons.map((r) => (r.Code === 'None' ? undefined : r.Code));
}

const backoff = (attempt: number) =>
  new Promise((r) => setTimeout(r, Math.random() * Math.min(500, 10 * 2 ** attempt)));
