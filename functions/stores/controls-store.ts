/**
 * Mutes and blocks (model/user-controls.ts) in the graph table. Placing one writes its check entry
 * (conditioned: a repeat is a no-op), its list entry and its mirror in one transaction; a mute of a
 * followed user also sets the `muted` flag on the follow edge (conditioned on the edge as read) and
 * on the followee's followers-list entry, and takes the followee out of the muter's pulled set — so
 * the fan-out, the pull job and reads agree from the commit on. Checks read the check entry alone.
 */
import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { erasureKey } from '../model/erasure.js';
import { followEdgeKey, parseEdge } from '../model/follow-edge.js';
import { followListKey } from '../model/follow-lists.js';
import {
  type Control,
  controlCheckKey,
  controlListKey,
  controlPartition,
  controlPrefix,
  erasedListKey,
  mirrorKey,
  otherOfControlSk,
} from '../model/user-controls.js';
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

/**
 * A control's check entry first (its condition makes a repeat a no-op: `outcomeOf` reads item 0),
 * then its list entry and its mirror. The check entry holds no id.
 */
function placed(kind: Control, user: string, target: string) {
  return [
    { Put: { TableName: graph(), Item: controlCheckKey(kind, user, target), ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: graph(), Item: { ...controlListKey(kind, user, target), userId: target } } },
    { Put: { TableName: graph(), Item: { ...mirrorKey(kind, user, target), userId: user } } },
  ];
}

/** Every item of a control, the erased form of its list entry included (the target may have been erased and come back). */
function lifted(kind: Control, user: string, target: string, conditioned: boolean) {
  return [
    { Delete: { TableName: graph(), Key: controlCheckKey(kind, user, target), ...(conditioned ? { ConditionExpression: 'attribute_exists(pk)' } : {}) } },
    { Delete: { TableName: graph(), Key: controlListKey(kind, user, target) } },
    { Delete: { TableName: graph(), Key: erasedListKey(kind, user, target) } },
    { Delete: { TableName: graph(), Key: mirrorKey(kind, user, target) } },
  ];
}

export async function placeMute(user: string, target: string, follow: FollowRef | undefined): Promise<ControlOutcome> {
  try {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          ...placed('mute', user, target),
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
          ...lifted('mute', user, target, true),
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
        TransactItems: placed('block', user, target),
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
      TransactItems: lifted('block', user, target, false),
    }),
  );
}

/**
 * Which of these (kind, user, target) controls stand, whether `erasing` has an erase mark, and
 * which of the `followees` of `follower` they follow (an active edge): one BatchGet.
 */
export async function standingControls(
  keys: readonly { kind: Control; user: string; target: string }[],
  opts: { erasing?: string; follower?: string; followees?: readonly string[] } = {},
): Promise<{ standing: Set<string>; erased: boolean; following: Set<string> }> {
  const { erasing, follower } = opts;
  const edges = follower === undefined ? [] : (opts.followees ?? []).map((f) => followEdgeKey(follower, f));
  const wanted = [...keys.map((k) => controlCheckKey(k.kind, k.user, k.target)), ...edges, ...(erasing === undefined ? [] : [erasureKey(erasing)])];
  if (wanted.length === 0) return { standing: new Set(), erased: false, following: new Set() };
  const items = await batchGetAll(graph(), wanted, { consistent: true });
  const mark = erasing === undefined ? undefined : erasureKey(erasing).pk;
  const edgePk = follower === undefined ? undefined : followEdgeKey(follower, '').pk;
  const following = new Set(items.filter((i) => i.pk === edgePk && parseEdge(i)?.state === 'active').map((i) => String(i.sk)));
  return { standing: new Set(items.map((i) => `${i.pk}\n${i.sk}`)), erased: items.some((i) => i.pk === mark), following };
}
export const controlId = (kind: Control, user: string, target: string) => {
  const k = controlCheckKey(kind, user, target);
  return `${k.pk}\n${k.sk}`;
};

/** One page of a user's mutes or blocks, alphabetical, after target `after` (erased targets last, as read: model/user-controls.ts). */
export async function controlPage(kind: Control, user: string, limit: number, after?: string): Promise<{ targets: string[]; more: boolean }> {
  const page = await queryPage({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': controlPartition(user), ':p': controlPrefix(kind) },
    Limit: limit,
    ...(after !== undefined ? { ExclusiveStartKey: { pk: controlPartition(user), sk: `${controlPrefix(kind)}${after}` } } : {}),
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


/**
 * `erased` was erased: `owner`'s control of them stays in force (its check entry holds only a
 * hash), its list entry becomes the erased form and the mirror in the erased user's partition goes
 * — one transaction, conditioned on the check entry, so a control the owner lifted meanwhile is
 * not brought back as an erased entry. Idempotent.
 */
export async function keepControlOfErased(kind: Control, owner: string, erased: string): Promise<void> {
  try {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { ConditionCheck: { TableName: graph(), Key: controlCheckKey(kind, owner, erased), ConditionExpression: 'attribute_exists(pk)' } },
          { Put: { TableName: graph(), Item: { ...erasedListKey(kind, owner, erased), erased: true } } },
          { Delete: { TableName: graph(), Key: controlListKey(kind, owner, erased) } },
          { Delete: { TableName: graph(), Key: mirrorKey(kind, owner, erased) } },
        ],
      }),
    );
  } catch (error) {
    if (cancellationCodes(error)?.[0] !== 'ConditionalCheckFailed') throw error;
    // Lifted meanwhile: what is left of it names the erased user.
    await deleteControlItem(controlListKey(kind, owner, erased));
    await deleteControlItem(mirrorKey(kind, owner, erased));
  }
}
