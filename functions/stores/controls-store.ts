/**
 * Mutes and blocks (model/user-controls.ts) in the graph table. A mute of a followed user is one
 * transaction: the mute and its mirror, the `muted` flag on the follow edge (conditioned on the
 * edge as read) and on the followee's followers-list entry, and the followee out of the muter's
 * pulled set — so the fan-out, the pull job and reads agree from the commit on.
 */
import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { erasureKey } from '../model/erasure.js';
import { followEdgeKey } from '../model/follow-edge.js';
import { followListKey } from '../model/follow-lists.js';
import { type Control, controlKey, controlPartition, controlPrefix, mirrorKey, otherOfControlSk } from '../model/user-controls.js';
import { doc } from '../platform/clients.js';
import { batchGetAll } from '../platform/dynamo/batch-get.js';
import { cancellationCodes } from '../platform/dynamo/errors.js';
import { type Item, queryAll, queryPage } from '../platform/dynamo/query.js';
import { tableName } from '../platform/env.js';
import { removePulledUpdate } from './feed-store.js';

const graph = () => tableName('graph');

/** `done`; `noop` (it already stood / was already lifted); `edge_changed` (re-read and retry). */
export type ControlOutcome = 'done' | 'noop' | 'edge_changed';

function outcomeOf(error: unknown): ControlOutcome {
  const codes = cancellationCodes(error);
  if (!codes) throw error;
  if (codes[0] === 'ConditionalCheckFailed') return 'noop';
  return 'edge_changed';
}

/** The follow edge as read, when the muter follows the target. */
export interface FollowRef {
  readonly order: string;
}

function edgeFlag(user: string, target: string, follow: FollowRef, set: boolean) {
  return [
    {
      Update: {
        TableName: graph(),
        Key: followEdgeKey(user, target),
        UpdateExpression: set ? 'SET muted = :t' : 'REMOVE muted',
        ConditionExpression: '#state = :active AND #order = :order',
        ExpressionAttributeNames: { '#state': 'state', '#order': 'order' },
        ExpressionAttributeValues: { ':active': 'active', ':order': follow.order, ...(set ? { ':t': true } : {}) },
      },
    },
    {
      Update: {
        TableName: graph(),
        Key: followListKey('followers', target, follow.order, user),
        UpdateExpression: set ? 'SET muted = :t' : 'REMOVE muted',
        ...(set ? { ExpressionAttributeValues: { ':t': true } } : {}),
      },
    },
  ];
}

export async function placeMute(user: string, target: string, follow: FollowRef | undefined): Promise<ControlOutcome> {
  try {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: graph(), Item: { ...controlKey('mute', user, target), userId: target }, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: graph(), Item: { ...mirrorKey('mute', user, target), userId: user } } },
          ...(follow ? [...edgeFlag(user, target, follow, true), { Update: removePulledUpdate(user, target) }] : []),
        ] as never,
      }),
    );
    return 'done';
  } catch (error) {
    return outcomeOf(error);
  }
}

export async function liftMute(user: string, target: string, follow: FollowRef | undefined): Promise<ControlOutcome> {
  try {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: graph(), Key: controlKey('mute', user, target), ConditionExpression: 'attribute_exists(pk)' } },
          { Delete: { TableName: graph(), Key: mirrorKey('mute', user, target) } },
          ...(follow ? edgeFlag(user, target, follow, false) : []),
        ] as never,
      }),
    );
    return 'done';
  } catch (error) {
    return outcomeOf(error);
  }
}

/** Place a block and its mirror: 'done', 'noop' (it already stood) or 'edge_changed' (a conflicting transaction: retry). */
export async function placeBlock(user: string, target: string): Promise<ControlOutcome> {
  try {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: graph(), Item: { ...controlKey('block', user, target), userId: target }, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: graph(), Item: { ...mirrorKey('block', user, target), userId: user } } },
        ],
      }),
    );
    return 'done';
  } catch (error) {
    return outcomeOf(error);
  }
}

export async function liftBlock(user: string, target: string): Promise<void> {
  await doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: graph(), Key: controlKey('block', user, target) } },
        { Delete: { TableName: graph(), Key: mirrorKey('block', user, target) } },
      ],
    }),
  );
}

/** Which of these (kind, user, target) controls stand — and whether `erasing` has an erase mark: one BatchGet. */
export async function standingControls(
  keys: readonly { kind: Control; user: string; target: string }[],
  erasing?: string,
): Promise<{ standing: Set<string>; erased: boolean }> {
  const wanted = [...keys.map((k) => controlKey(k.kind, k.user, k.target)), ...(erasing === undefined ? [] : [erasureKey(erasing)])];
  if (wanted.length === 0) return { standing: new Set(), erased: false };
  const items = await batchGetAll(graph(), wanted, { consistent: true });
  const mark = erasing === undefined ? undefined : erasureKey(erasing).pk;
  return { standing: new Set(items.map((i) => `${i.pk}\n${i.sk}`)), erased: items.some((i) => i.pk === mark) };
}
export const controlId = (kind: Control, user: string, target: string) => {
  const k = controlKey(kind, user, target);
  return `${k.pk}\n${k.sk}`;
};

/** One page of a user's mutes or blocks, alphabetical, after target `after`. */
export async function controlPage(kind: Control, user: string, limit: number, after?: string): Promise<{ targets: string[]; more: boolean }> {
  const page = await queryPage({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': controlPartition(user), ':p': controlPrefix(kind) },
    Limit: limit,
    ...(after !== undefined ? { ExclusiveStartKey: controlKey(kind, user, after) } : {}),
  });
  return { targets: page.items.map((i) => otherOfControlSk(String(i.sk))), more: page.lastEvaluatedKey !== undefined };
}

/** Every control item of a user, both ways (mutes, blocks and their mirrors): for export and erase. */
export const allControls = (user: string): Promise<Item[]> =>
  queryAll({ TableName: graph(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': controlPartition(user) }, ConsistentRead: true });

/** Delete one control item by key (erase: both sides, one at a time, idempotent). */
export async function deleteControlItem(key: { pk: string; sk: string }): Promise<void> {
  await doc.send(new DeleteCommand({ TableName: graph(), Key: key }));
}

