/**
 * Activity writes and single reads against the feed table (and the graph table's foreignId
 * markers). Handlers call these; the key model decides every key.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc } from '../clients.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import { feedItemKey, foreignIdKey } from '../keys.js';
import { type Activity, isVisibleOriginal, type NewFeedItem, toActivity } from './activity.js';

export interface FeedTables {
  readonly feed: string;
  readonly graph: string;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** Concurrent posts with one foreignId: the loser retries until it can read the winner's marker. */
const FOREIGN_ID_ATTEMPTS = 4;

/**
 * Write a new original. Without foreignId: one conditional PutItem. With foreignId: a
 * transaction of the original and its marker; if the marker exists, nothing is written and the
 * original it names is returned (`created: false`).
 */
export async function writeOriginal(t: FeedTables, item: NewFeedItem): Promise<{ created: boolean; activity: Activity }> {
  if (item.foreignId === undefined) {
    await doc.send(new PutCommand({ TableName: t.feed, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return { created: true, activity: toActivity(item as unknown as Record<string, unknown>) };
  }
  const marker = foreignIdKey(item.actor, item.foreignId);
  for (let attempt = 1; ; attempt++) {
    try {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: t.feed, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
            {
              Put: {
                TableName: t.graph,
                Item: { ...marker, rk: item.rk, id: item.id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return { created: true, activity: toActivity(item as unknown as Record<string, unknown>) };
    } catch (error) {
      if ((error as Error).name !== 'TransactionCanceledException' || attempt >= FOREIGN_ID_ATTEMPTS) throw error;
    }
    // Cancelled: the marker exists (ConditionalCheckFailed) or a concurrent post holds it
    // (TransactionConflict). Either way, the marker decides; if it is not there yet, retry.
    const existing = await doc.send(new GetCommand({ TableName: t.graph, Key: marker, ConsistentRead: true }));
    if (existing.Item) {
      const rk = BigInt(String(existing.Item.rk));
      const original = await doc.send(
        new GetCommand({ TableName: t.feed, Key: feedItemKey(item.actor, rk), ConsistentRead: true }),
      );
      if (!isVisibleOriginal(original.Item, nowSeconds())) {
        throw new ConflictError('The activity with this foreignId was deleted or has expired.');
      }
      return { created: false, activity: toActivity(original.Item!) };
    }
    await new Promise((r) => setTimeout(r, 20 * attempt));
  }
}

/** The visible original at (actor, rk), or NotFoundError. */
export async function getOriginal(t: FeedTables, actor: string, rk: bigint): Promise<Activity> {
  const { Item } = await doc.send(new GetCommand({ TableName: t.feed, Key: feedItemKey(actor, rk), ConsistentRead: true }));
  if (!isVisibleOriginal(Item, nowSeconds()) || Item!.actor !== actor) throw new NotFoundError('No such activity.');
  return toActivity(Item!);
}

/**
 * Mark the original deleted (`deletedAt`); the stream MODIFY record is the fan-out worker's
 * signal to retract every copy and then remove the original. Reads hide marked items at once.
 * Only the actor may delete: 403 for someone else's visible activity, 404 for an absent one.
 */
export async function markDeleted(t: FeedTables, caller: string, actor: string, rk: bigint): Promise<void> {
  const now = nowSeconds();
  if (actor !== caller) {
    await getOriginal(t, actor, rk); // 404 if there is nothing to protect
    throw new ForbiddenError('Only the actor may delete an activity.');
  }
  let marked: Record<string, unknown> | undefined;
  try {
    ({ Attributes: marked } = await doc.send(
      new UpdateCommand({
        TableName: t.feed,
        Key: feedItemKey(actor, rk),
        UpdateExpression: 'SET deletedAt = :deletedAt',
        ConditionExpression:
          'attribute_exists(author) AND actor = :caller AND attribute_not_exists(deletedAt) ' +
          'AND (attribute_not_exists(expiresAt) OR expiresAt > :now)',
        ExpressionAttributeValues: { ':deletedAt': new Date().toISOString(), ':caller': caller, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    ));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError('No such activity.');
    throw error;
  }
  // Free the foreignId so it can be posted again; the marker must still name this activity.
  if (typeof marked?.foreignId === 'string') {
    try {
      await doc.send(
        new DeleteCommand({
          TableName: t.graph,
          Key: foreignIdKey(actor, marked.foreignId),
          ConditionExpression: 'rk = :rk',
          ExpressionAttributeValues: { ':rk': rk },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
