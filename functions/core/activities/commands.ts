/**
 * DynamoDB requests of the activity store, built without sending (STYLE: `params()` apart from
 * `send()`), so unit tests assert exactly what would go over the wire.
 */
import type {
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { tables } from '../../../lib/defs/tables.js';
import { feedItemKey, foreignIdKey, type PageCursor, pageKeyCondition } from '../keys.js';
import type { FeedItem } from './item.js';

export interface StoreTables {
  readonly feed: string;
  readonly graph: string;
}

/** Whose items a page lists: one home feed (base table) or one author's originals (GSI). */
export type PageSource = { kind: 'feed'; owner: string } | { kind: 'author'; userId: string };

const AUTHOR_INDEX = tables.feed.globalIndexes.find((i) => i.indexName === 'byAuthor')!.indexName;

/** A post without foreignId: one conditional PutItem (a key collision fails instead of overwriting). */
export function putOriginal(t: StoreTables, item: FeedItem): PutCommandInput {
  return {
    TableName: t.feed,
    Item: item,
    ConditionExpression: 'attribute_not_exists(pk)',
    ReturnConsumedCapacity: 'INDEXES',
  };
}

/**
 * A post with foreignId: the original and its idempotency marker in one transaction, each only
 * if absent. If the marker exists the whole post is refused and the caller returns the original.
 */
export function putOriginalWithMarker(t: StoreTables, item: FeedItem, foreignId: string): TransactWriteCommandInput {
  return {
    TransactItems: [
      { Put: { TableName: t.feed, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: t.graph,
          Item: { ...foreignIdKey(item.actor, foreignId), rk: item.rk },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    ReturnConsumedCapacity: 'INDEXES',
  };
}

export function getMarker(t: StoreTables, actor: string, foreignId: string): GetCommandInput {
  return { TableName: t.graph, Key: foreignIdKey(actor, foreignId), ConsistentRead: true };
}

export function getOriginal(t: StoreTables, actor: string, rk: bigint, consistent = false): GetCommandInput {
  return { TableName: t.feed, Key: feedItemKey(actor, rk), ConsistentRead: consistent };
}

/** Delete an original that has no marker; conditional so a concurrent delete reads as 404. */
export function deleteOriginal(t: StoreTables, actor: string, rk: bigint): DeleteCommandInput {
  return { TableName: t.feed, Key: feedItemKey(actor, rk), ConditionExpression: 'attribute_exists(pk)' };
}

/** Delete an original and its foreignId marker together, so the foreignId can be used again. */
export function deleteOriginalWithMarker(t: StoreTables, actor: string, rk: bigint, foreignId: string): TransactWriteCommandInput {
  return {
    TransactItems: [
      { Delete: { TableName: t.feed, Key: feedItemKey(actor, rk), ConditionExpression: 'attribute_exists(pk)' } },
      {
        Delete: {
          TableName: t.graph,
          Key: foreignIdKey(actor, foreignId),
          // Only the marker that points at this original (never one re-created for a newer post).
          ConditionExpression: 'attribute_not_exists(pk) OR rk = :rk',
          ExpressionAttributeValues: { ':rk': rk },
        },
      },
    ],
  };
}

/**
 * One page in ONE Query. `Limit` is the page size + 1: the extra item, if it comes back, proves
 * there is more (and is dropped), so the last page says `lastRangeKey: null` instead of making
 * the client fetch an empty page — what `LastEvaluatedKey` alone would do when a page ends
 * exactly at the last item.
 */
export function pageQuery(feedTable: string, source: PageSource, cursor: PageCursor, limit: number): QueryCommandInput {
  const byAuthor = source.kind === 'author';
  const key = pageKeyCondition(byAuthor ? 'author' : 'pk', byAuthor ? source.userId : source.owner, cursor);
  return {
    TableName: feedTable,
    ...(byAuthor ? { IndexName: AUTHOR_INDEX } : {}),
    KeyConditionExpression: key.expression,
    ExpressionAttributeNames: key.names,
    ExpressionAttributeValues: key.values,
    ScanIndexForward: key.scanIndexForward,
    Limit: limit + 1,
  };
}
