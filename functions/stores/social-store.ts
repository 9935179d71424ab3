/**
 * Reactions, comments and the per-activity counters (model/reaction.ts, model/comment.ts): the
 * reaction items live in the graph table, comments and counters in the feed table. Every add or
 * removal is one transaction of the user's item and the counter, so counts stay exact under any
 * concurrency and a repeat is a no-op; the counter's `closed` mark (set before an activity is
 * deleted) makes a late add fail instead of leaving an orphan behind the purge.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type CommentItem, commentKey, commentPartition } from '../model/comment.js';
import { LEDGER_PREFIX, type LedgerKind, ledgerCommentKey, ledgerPartition, ledgerReactionKey } from '../model/user-ledger.js';
import { rkOf } from '../model/range-key.js';
import { type CounterEvent, countAttribute, counterKey, encodeCounterEvent, reactionKey, reactionPartition } from '../model/reaction.js';
import { doc } from '../platform/clients.js';
import { batchGetAll } from '../platform/dynamo/batch-get.js';
import { batchWriteAll } from '../platform/dynamo/batch-write.js';
import { type Item, mapPage, type Page, queryAll, queryListPage, queryPage, sortKeyOf } from '../platform/dynamo/query.js';
import { transact, type TxPart } from '../platform/dynamo/transact.js';
import { tableName } from '../platform/env.js';

const feed = () => tableName('feed');
const graph = () => tableName('graph');

/**
 * `done`: applied. `noop`: the user's item already said so (a repeat). `closed`: the activity is
 * being deleted. `conflict`: a concurrent transaction on the same items — retry.
 */
export type SocialOutcome = 'done' | 'noop' | 'closed' | 'conflict';

/** The counter update of one add (`ev` names it for the notification) or removal (no `ev`). */
function counterUpdate(activityId: string, kind: string, change: { add: CounterEvent } | { remove: true }) {
  const add = 'add' in change;
  return {
    TableName: feed(),
    Key: counterKey(activityId),
    UpdateExpression: add ? 'ADD #n :d SET ev = :ev' : 'ADD #n :d REMOVE ev',
    ConditionExpression: 'attribute_not_exists(closed)',
    ExpressionAttributeNames: { '#n': countAttribute(kind) },
    ExpressionAttributeValues: { ':d': add ? 1 : -1, ...(add ? { ':ev': encodeCounterEvent(change.add) } : {}) },
  };
}

/** Every change: the user's own item (its condition says "already so"), the counter (closed?), the ledger entry. */
type Part = 'own' | 'counter' | 'ledger';

async function change(parts: readonly TxPart<Part>[]): Promise<SocialOutcome> {
  const out = await transact(parts);
  if (out.ok) return 'done';
  if (out.failed.has('own')) return 'noop';
  if (out.failed.has('counter')) return 'closed';
  return 'conflict';
}

/** Add `kind` to the user's reactions and count it (no-op if they already reacted so). */
export function addReaction(activityId: string, author: string, event: CounterEvent): Promise<SocialOutcome> {
  return change([
    [
      'own',
      {
        Update: {
          TableName: graph(),
          Key: reactionKey(activityId, event.actor),
          UpdateExpression: 'ADD kinds :k SET author = :author',
          ConditionExpression: 'attribute_not_exists(kinds) OR NOT contains(kinds, :kv)',
          ExpressionAttributeValues: { ':k': new Set([event.kind]), ':kv': event.kind, ':author': author },
        },
      },
    ],
    ['counter', { Update: counterUpdate(activityId, event.kind, { add: event }) }],
    [
      'ledger',
      {
        Update: {
          TableName: graph(),
          Key: ledgerReactionKey(event.actor, activityId),
          UpdateExpression: 'ADD kinds :k SET author = :author, activityId = :id',
          ExpressionAttributeValues: { ':k': new Set([event.kind]), ':author': author, ':id': activityId },
        },
      },
    ],
  ]);
}

/** Remove `kind` from the user's reactions and uncount it (no-op if they had not reacted so). */
export function removeReaction(activityId: string, userId: string, kind: string): Promise<SocialOutcome> {
  return change([
    [
      'own',
      {
        Update: {
          TableName: graph(),
          Key: reactionKey(activityId, userId),
          UpdateExpression: 'DELETE kinds :k',
          ConditionExpression: 'contains(kinds, :kv)',
          ExpressionAttributeValues: { ':k': new Set([kind]), ':kv': kind },
        },
      },
    ],
    ['counter', { Update: counterUpdate(activityId, kind, { remove: true }) }],
    [
      'ledger',
      {
        Update: {
          TableName: graph(),
          Key: ledgerReactionKey(userId, activityId),
          UpdateExpression: 'DELETE kinds :k',
          ExpressionAttributeValues: { ':k': new Set([kind]) },
        },
      },
    ],
  ]);
}

/** Store a comment and count it. */
export function addComment(item: CommentItem, event: CounterEvent): Promise<SocialOutcome> {
  return change([
    ['own', { Put: { TableName: feed(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }],
    ['counter', { Update: counterUpdate(item.activityId, event.kind, { add: event }) }],
    [
      'ledger',
      { Put: { TableName: graph(), Item: { ...ledgerCommentKey(item.actor, item.activityId, item.rk), author: item.author, activityId: item.activityId } } },
    ],
  ]);
}

/** Delete `actor`'s comment and uncount it (`noop` if it is already gone). */
export function removeComment(activityId: string, rk: bigint, kind: string, actor: string): Promise<SocialOutcome> {
  return change([
    ['own', { Delete: { TableName: feed(), Key: commentKey(activityId, rk), ConditionExpression: 'attribute_exists(pk)' } }],
    ['counter', { Update: counterUpdate(activityId, kind, { remove: true }) }],
    ['ledger', { Delete: { TableName: graph(), Key: ledgerCommentKey(actor, activityId, rk) } }],
  ]);
}

export async function getComment(activityId: string, rk: bigint): Promise<Item | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: feed(), Key: commentKey(activityId, rk), ConsistentRead: true }));
  return Item as Item | undefined;
}

/** One page of an activity's comments, newest first, older than `after` (a comment rk); `last` is a comment rk. */
export function commentPage(activityId: string, limit: number, after?: bigint): Promise<Page<Item, string>> {
  return queryListPage(
    {
      TableName: feed(),
      KeyConditionExpression: after === undefined ? 'pk = :pk' : 'pk = :pk AND rk > :after',
      ExpressionAttributeValues: { ':pk': commentPartition(activityId), ...(after === undefined ? {} : { ':after': after }) },
      Limit: limit,
    },
    (item) => rkOf(item.rk).toString(),
  );
}

/** Counter items of these activities (absent = no reactions yet). One BatchGet per 100. */
export const getCounters = (activityIds: readonly string[]): Promise<Item[]> => batchGetAll(feed(), activityIds.map(counterKey));

/** The user's reaction items for these activities. One BatchGet per 100. */
export const getReactionsOf = (userId: string, activityIds: readonly string[]): Promise<Item[]> =>
  batchGetAll(
    graph(),
    activityIds.map((id) => reactionKey(id, userId)),
  );

/**
 * Close the counter before the activity is marked deleted: adds that race the delete fail their
 * condition, so the purge that follows the delete sees every reaction and comment there will be.
 * The closed counter expires with the tombstone (`expiresAt`).
 */
export async function closeCounter(activityId: string, expiresAt: number): Promise<void> {
  await doc.send(
    new UpdateCommand({
      TableName: feed(),
      Key: counterKey(activityId),
      UpdateExpression: 'SET closed = :t, expiresAt = :e REMOVE ev',
      ExpressionAttributeValues: { ':t': true, ':e': expiresAt },
    }),
  );
}

/**
 * Delete every reaction item and comment of a (deleted) activity, with the reactors' and
 * commenters' ledger entries for them. Bounded pages of 25-item batches.
 */
export async function purgeReactionsAndComments(activityId: string): Promise<{ reactions: number; comments: number }> {
  const reactions = await queryAll({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': reactionPartition(activityId) },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true, // every reaction committed before the counter closed
  });
  await batchWriteAll(graph(), [
    ...reactions.map((Key) => ({ DeleteRequest: { Key } })),
    ...reactions.map((r) => ({ DeleteRequest: { Key: ledgerReactionKey(String(r.sk), activityId) } })),
  ]);
  const comments = await queryAll({
    TableName: feed(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': commentPartition(activityId) },
    ProjectionExpression: 'pk, rk, actor',
    ConsistentRead: true,
  });
  await batchWriteAll(
    feed(),
    comments.map((c) => ({ DeleteRequest: { Key: { pk: c.pk, rk: c.rk } } })),
  );
  await batchWriteAll(
    graph(),
    comments.map((c) => ({ DeleteRequest: { Key: ledgerCommentKey(String(c.actor), activityId, rkOf(c.rk)) } })),
  );
  return { reactions: reactions.length, comments: comments.length };
}

/**
 * Who reacted to or commented on an activity (its edit's notices): the first `limit` reactions'
 * users and comments' authors, read with projections (keys; comment actors), deduplicated.
 */
export async function interactedWith(activityId: string, limit: number): Promise<string[]> {
  const [reactions, comments] = await Promise.all([
    queryAll(
      {
        TableName: graph(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': reactionPartition(activityId) },
        ProjectionExpression: 'sk',
        Limit: limit,
      },
      limit,
    ),
    queryAll(
      {
        TableName: feed(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': commentPartition(activityId) },
        ProjectionExpression: 'actor',
        Limit: limit,
      },
      limit,
    ),
  ]);
  return [...new Set([...reactions.map((r) => String(r.sk)), ...comments.map((c) => String(c.actor))])];
}

/** Delete an activity's counter (an erase: no closed counter stays behind). */
export async function deleteCounter(activityId: string): Promise<void> {
  await doc.send(new DeleteCommand({ TableName: feed(), Key: counterKey(activityId) }));
}

/** A page of a user's ledger (model/user-ledger.ts): one kind of entry, after sort key `after`. */
export async function ledgerPage(user: string, kind: LedgerKind, limit: number, after?: string): Promise<Page<Item, string>> {
  const page = await queryPage({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': ledgerPartition(user), ':p': LEDGER_PREFIX[kind] },
    Limit: limit,
    ConsistentRead: true,
    ...(after ? { ExclusiveStartKey: { pk: ledgerPartition(user), sk: after } } : {}),
  });
  return mapPage(page, (i) => i, sortKeyOf);
}

/** The stored comments at these keys (an export). */
export const getComments = (keys: readonly { activityId: string; rk: bigint }[]): Promise<Item[]> =>
  batchGetAll(
    feed(),
    keys.map((k) => commentKey(k.activityId, k.rk)),
  );

/** Delete a user's reaction item and ledger entry for an activity (an erase, after the counts were adjusted). */
export async function deleteReactionItems(activityId: string, user: string): Promise<void> {
  await batchWriteAll(graph(), [{ DeleteRequest: { Key: reactionKey(activityId, user) } }, { DeleteRequest: { Key: ledgerReactionKey(user, activityId) } }]);
}

/** Delete a ledger entry by key (an erase, for an entry whose comment is already gone). */
export async function deleteLedgerItem(key: { pk: string; sk: string }): Promise<void> {
  await doc.send(new DeleteCommand({ TableName: graph(), Key: key }));
}
