/**
 * The activity store: post, get, delete. Sends the requests that `commands.ts` builds through the
 * client it is given. Pages are `reader.ts` (the read function gets no graph-table access).
 */
import { ConditionalCheckFailedException, type ConsumedCapacity, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import * as cmd from './commands.js';
import { type FeedItem, originalItem, viewOf } from './item.js';
import type { ActivityView, PostActivityBody } from './schemas.js';

export interface PostResult {
  readonly activity: ActivityView;
  /** False when a foreignId replay returned the original instead of writing. */
  readonly created: boolean;
  /**
   * Write units the post consumed (0 for a replay), as DynamoDB reported them: `table` for the
   * items themselves (what a fan-out copy also costs), `total` adding the `byAuthor` index entry
   * that only the original has.
   */
  readonly writeUnits: { readonly table: number; readonly total: number };
}

const NO_WRITE = { table: 0, total: 0 } as const;

function unitsOf(capacity: readonly ConsumedCapacity[] | ConsumedCapacity | undefined) {
  const list = capacity === undefined ? [] : Array.isArray(capacity) ? capacity : [capacity as ConsumedCapacity];
  return {
    table: list.reduce((s, c) => s + (c.Table?.CapacityUnits ?? 0), 0),
    total: list.reduce((s, c) => s + (c.CapacityUnits ?? 0), 0),
  };
}

/** A random 12-digit discriminator collides with odds ~1e-12 per equal tick; retry a few times. */
const KEY_ATTEMPTS = 3;

export function createActivityStore(client: DynamoDBDocumentClient, t: cmd.StoreTables) {
  async function post(actor: string, body: PostActivityBody): Promise<PostResult> {
    for (let attempt = 1; ; attempt++) {
      const item = originalItem(actor, body);
      try {
        if (body.foreignId === undefined) {
          const out = await client.send(new PutCommand(cmd.putOriginal(t, item)));
          return { activity: viewOf(item), created: true, writeUnits: unitsOf(out.ConsumedCapacity) };
        }
        const out = await client.send(new TransactWriteCommand(cmd.putOriginalWithMarker(t, item, body.foreignId)));
        return { activity: viewOf(item), created: true, writeUnits: unitsOf(out.ConsumedCapacity) };
      } catch (error) {
        if (body.foreignId !== undefined && markerConflict(error)) {
          const original = await replay(actor, body.foreignId);
          if (original) return { activity: original, created: false, writeUnits: NO_WRITE };
          // The marker vanished (its original was deleted) between our write and our read: post anew.
        } else if (!keyConflict(error)) {
          throw error;
        }
        if (attempt >= KEY_ATTEMPTS) throw new ConflictError('Could not allocate a unique key; retry.');
      }
    }
  }

  /** The original a foreignId marker points to, read consistently; undefined if the marker is gone. */
  async function replay(actor: string, foreignId: string): Promise<ActivityView | undefined> {
    const { Item: marker } = await client.send(new GetCommand(cmd.getMarker(t, actor, foreignId)));
    if (!marker) return undefined;
    const { Item } = await client.send(new GetCommand(cmd.getOriginal(t, actor, BigInt(String(marker.rk)), true)));
    if (!Item) throw new ConflictError(`foreignId ${foreignId} is being changed concurrently; retry.`);
    return viewOf(Item);
  }

  async function get(actor: string, rk: bigint): Promise<ActivityView> {
    const { Item } = await client.send(new GetCommand(cmd.getOriginal(t, actor, rk)));
    if (!Item || Item.author !== actor) throw new NotFoundError('No such activity.');
    return viewOf(Item);
  }

  /** Only the actor may delete; the original's stream REMOVE record drives removal of copies. */
  async function remove(caller: string, actor: string, rk: bigint): Promise<void> {
    const { Item } = await client.send(new GetCommand(cmd.getOriginal(t, actor, rk, true)));
    if (!Item || Item.author !== actor) throw new NotFoundError('No such activity.');
    if (caller !== actor) throw new ForbiddenError('Only the actor may delete an activity.');
    try {
      if (Item.foreignId === undefined) await client.send(new DeleteCommand(cmd.deleteOriginal(t, actor, rk)));
      else await client.send(new TransactWriteCommand(cmd.deleteOriginalWithMarker(t, actor, rk, String(Item.foreignId))));
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException || error instanceof TransactionCanceledException) {
        throw new NotFoundError('No such activity.'); // deleted concurrently
      }
      throw error;
    }
  }

  return { post, get, remove };
}

export type ActivityStore = ReturnType<typeof createActivityStore>;

const markerConflict = (error: unknown) =>
  error instanceof TransactionCanceledException &&
  error.CancellationReasons?.[1]?.Code === 'ConditionalCheckFailed';

const keyConflict = (error: unknown) =>
  error instanceof ConditionalCheckFailedException ||
  (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed');

export type { FeedItem };
