/**
 * Mutes and blocks (model/user-controls.ts) in the graph table. Placing one writes its check entry
 * (conditioned: a repeat is a no-op), its list entry and its mirror in one transaction; a mute of a
 * followed user also sets the `muted` flag on the follow edge (conditioned on the edge as read) and
 * on the followee's followers-list entry, and takes the followee out of the muter's pulled set — so
 * the fan-out, the pull job and reads agree from the commit on. Checks read the check entry alone.
 * Every transaction names its parts (platform/dynamo/transact.ts): outcomes are read by name.
 *
 * Retries repair: a mute of a followed user leaves `cleanupPending` on its check entry until both
 * cleanup jobs are queued, so a repeat that finds the mute standing (the failed condition returns
 * the entry, no read) queues them again; an unmute of a followed user sets the edge's
 * `backfillPending`, which the backfill clears, so a repeat finds the backfill still owed.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { erasureKey } from '../model/erasure.js';
import { followEdgeKey, parseEdge } from '../model/follow-edge.js';
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
import { isConditionalCheckFailed } from '../platform/dynamo/dynamo-errors.js';
import { type Item, mapPage, type Page, queryAll, queryListPage, sortKeyOf } from '../platform/dynamo/query.js';
import { transact, type TxOutcome, type TxPart } from '../platform/dynamo/transact.js';
import { tableName } from '../platform/env.js';
import { AGAIN, RETRY, retrying } from '../platform/retry.js';
import { addPulledUpdate, removePulledUpdate } from './feed-store.js';
import { type FollowRef, mutedFlagParts, noActiveFollow, pulledAsRead, readGraphKeys } from './follow-store.js';

const graph = () => tableName('graph');

/**
 * `done`; `noop` (it already stood / was already lifted); `pending` (it already stood, and the jobs
 * it starts may not all be queued: queue them again); `edge_changed` (re-read and retry).
 */
export type ControlOutcome = 'done' | 'noop' | 'pending' | 'edge_changed';

/** The parts every control transaction may have; `check` is the conditioned check entry. */
type Part = 'check' | 'list' | 'erasedList' | 'mirror' | 'edge' | 'followersEntry' | 'pulledSet' | 'noFollow' | 'pulledAsRead';

/** A repeat (the check entry's condition failed) or a lost race (anything else). */
const outcomeOf = (out: TxOutcome<Part>): ControlOutcome => (out.ok ? 'done' : out.failed.has('check') ? 'noop' : 'edge_changed');

/**
 * A control's check entry (its condition makes a repeat a no-op, and returns the entry: its
 * `cleanupPending` says whether jobs are still owed), its list entry and its mirror. The check
 * entry holds no id.
 */
function placed(kind: Control, user: string, target: string, pending = false): TxPart<Part>[] {
  return [
    [
      'check',
      {
        Put: {
          TableName: graph(),
          Item: { ...controlCheckKey(kind, user, target), ...(pending ? { cleanupPending: true } : {}) },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
        returnOld: true,
      },
    ],
    ['list', { Put: { TableName: graph(), Item: { ...controlListKey(kind, user, target), userId: target } } }],
    ['mirror', { Put: { TableName: graph(), Item: { ...mirrorKey(kind, user, target), userId: user } } }],
  ];
}

/** Every item of a control, the erased form of its list entry included (the target may have been erased and come back). */
function lifted(kind: Control, user: string, target: string, conditioned: boolean): TxPart<Part>[] {
  return [
    [
      'check',
      { Delete: { TableName: graph(), Key: controlCheckKey(kind, user, target), ...(conditioned ? { ConditionExpression: 'attribute_exists(pk)' } : {}) } },
    ],
    ['list', { Delete: { TableName: graph(), Key: controlListKey(kind, user, target) } }],
    ['erasedList', { Delete: { TableName: graph(), Key: erasedListKey(kind, user, target) } }],
    ['mirror', { Delete: { TableName: graph(), Key: mirrorKey(kind, user, target) } }],
  ];
}

/**
 * Place a mute. Its check entry carries `cleanupPending` until `mutePendingCleared` (after both
 * cleanup jobs are queued: a followed tag may have brought the user's posts, followed or not); a
 * repeat that finds it says `pending`.
 */
export async function placeMute(user: string, target: string, follow: FollowRef | undefined): Promise<ControlOutcome> {
  const out = await transact<Part>([
    ...placed('mute', user, target, true),
    // No follow as read: none may appear before this commits (a bulk import writes edges without a transaction).
    ...(follow
      ? [...mutedFlagParts(user, target, follow, true), ['pulledSet', { Update: removePulledUpdate(user, target) }] as const]
      : [['noFollow', noActiveFollow(user, target)] as const]),
  ]);
  if (!out.ok && out.failed.has('check')) return out.old.check?.cleanupPending === true ? 'pending' : 'noop';
  return outcomeOf(out);
}

/** Both cleanup jobs of a mute are queued: its check entry owes nothing (if it still stands). */
export async function mutePendingCleared(user: string, target: string): Promise<void> {
  try {
    await doc.send(
      new UpdateCommand({
        TableName: graph(),
        Key: controlCheckKey('mute', user, target),
        UpdateExpression: 'REMOVE cleanupPending',
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error; // lifted meanwhile: nothing owed
  }
}

/**
 * Set (or clear) the `muted` flag of a follow made without reading the mute — a bulk import's, when
 * the mute changed under it — as a mute (or unmute) of a follow does: the edge as read (`order`)
 * and the followers-list entry, and for a mute the followee out of the follower's pulled set.
 */
export async function setFollowMuted(user: string, target: string, follow: FollowRef, muted: boolean): Promise<'done' | 'edge_changed'> {
  const out = await transact<Part>([...mutedFlagParts(user, target, follow, muted), muted && ['pulledSet', { Update: removePulledUpdate(user, target) }]]);
  return out.ok ? 'done' : 'edge_changed';
}

/**
 * Lift a mute. Of a followed user, the followee comes back the way a follow brings them: a pulled
 * one (as read: `pulled`, checked on the profile) into the follower's pulled set in this very
 * transaction, any other by a backfill the edge now owes (`backfillPending`, cleared by the job).
 */
export async function liftMute(user: string, target: string, follow: (FollowRef & { pulled: boolean }) | undefined): Promise<ControlOutcome> {
  const followParts: TxPart<Part>[] = !follow
    ? []
    : [
        ...mutedFlagParts(user, target, follow, false, !follow.pulled),
        ['pulledAsRead', pulledAsRead(target, follow.pulled)],
        follow.pulled && ['pulledSet', { Update: addPulledUpdate(user, target) }],
      ];
  return outcomeOf(await transact<Part>([...lifted('mute', user, target, true), ...followParts]));
}

/** Place a block and its mirror: 'done', 'noop' (it already stood) or 'edge_changed' (a conflicting transaction: retry). */
export async function placeBlock(user: string, target: string): Promise<ControlOutcome> {
  return outcomeOf(await transact<Part>(placed('block', user, target)));
}

/** Lift a block (a no-op if none stands); unconditioned, so only a lost race cancels it: retried. */
export async function liftBlock(user: string, target: string): Promise<void> {
  await retrying(`unblock ${user} → ${target}`, RETRY.request, async () =>
    (await transact<Part>(lifted('block', user, target, false))).ok ? undefined : AGAIN,
  );
}

/** What standingControls asks: controls by (kind, user, target), an erase mark, a follower's edges. */
export interface StandingQuery {
  readonly erasing?: string;
  readonly follower?: string;
  readonly followees?: readonly string[];
}

/** The keys standingControls reads, so a caller can read several users' in one BatchGet (standingFrom answers). */
export function standingControlKeys(keys: readonly { kind: Control; user: string; target: string }[], opts: StandingQuery = {}): Item[] {
  const edges = opts.follower === undefined ? [] : (opts.followees ?? []).map((f) => followEdgeKey(opts.follower!, f));
  return [...keys.map((k) => controlCheckKey(k.kind, k.user, k.target)), ...edges, ...(opts.erasing === undefined ? [] : [erasureKey(opts.erasing)])];
}

const keyId = (k: Item) => `${String(k.pk)}\n${String(k.sk)}`;

/** standingControls' answer from the items a strongly consistent read of (at least) standingControlKeys found. */
export function standingFrom(
  found: readonly Item[],
  keys: readonly { kind: Control; user: string; target: string }[],
  opts: StandingQuery = {},
): { standing: Set<string>; erased: boolean; following: Set<string> } {
  const wanted = new Set(standingControlKeys(keys, opts).map(keyId));
  const items = found.filter((i) => wanted.has(keyId(i))); // a shared read holds other users' items too
  const mark = opts.erasing === undefined ? undefined : erasureKey(opts.erasing).pk;
  const edgePk = opts.follower === undefined ? undefined : followEdgeKey(opts.follower, '').pk;
  const following = new Set(items.filter((i) => i.pk === edgePk && parseEdge(i)?.state === 'active').map((i) => String(i.sk)));
  return { standing: new Set(items.map(keyId)), erased: items.some((i) => i.pk === mark), following };
}

/**
 * Which of these (kind, user, target) controls stand, whether `erasing` has an erase mark, and
 * which of the `followees` of `follower` they follow (an active edge): one BatchGet.
 */
export async function standingControls(
  keys: readonly { kind: Control; user: string; target: string }[],
  opts: StandingQuery = {},
): Promise<{ standing: Set<string>; erased: boolean; following: Set<string> }> {
  const wanted = standingControlKeys(keys, opts);
  if (wanted.length === 0) return { standing: new Set(), erased: false, following: new Set() };
  return standingFrom(await readGraphKeys(wanted), keys, opts);
}
export const controlId = (kind: Control, user: string, target: string) => {
  const k = controlCheckKey(kind, user, target);
  return `${k.pk}\n${k.sk}`;
};

/** One page of a user's mutes or blocks, alphabetical, after target `after` (erased targets last, as read: model/user-controls.ts); `last` is a target. */
export async function controlPage(kind: Control, user: string, limit: number, after?: string): Promise<Page<string, string>> {
  const page = await queryListPage(
    {
      TableName: graph(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': controlPartition(user), ':p': controlPrefix(kind) },
      Limit: limit,
      ...(after !== undefined ? { ExclusiveStartKey: { pk: controlPartition(user), sk: `${controlPrefix(kind)}${after}` } } : {}),
    },
    sortKeyOf,
  );
  return mapPage(page, (i) => otherOfControlSk(String(i.sk)), otherOfControlSk);
}

/** Every control item of a user, both ways (mutes, blocks and their mirrors): for export and erase. */
export const allControls = (user: string): Promise<Item[]> =>
  queryAll({ TableName: graph(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': controlPartition(user) }, ConsistentRead: true });

/**
 * The sort keys of a user's control partition (their mutes and blocks, and who muted or blocked
 * them), eventually consistent: what a tag page or a tag fan-out page filters by, one Query.
 */
export async function controlSortKeys(user: string, opts: { readonly consistent?: boolean } = {}): Promise<string[]> {
  const items = await queryAll({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': controlPartition(user) },
    ProjectionExpression: 'sk',
    ...(opts.consistent ? { ConsistentRead: true } : {}),
  });
  return items.map((i) => String(i.sk));
}

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
  const lifted = await retrying(`keep ${owner}'s ${kind} of an erased user`, RETRY.step, async () => {
    const out = await transact<Part>([
      ['check', { ConditionCheck: { TableName: graph(), Key: controlCheckKey(kind, owner, erased), ConditionExpression: 'attribute_exists(pk)' } }],
      ['erasedList', { Put: { TableName: graph(), Item: { ...erasedListKey(kind, owner, erased), erased: true } } }],
      ['list', { Delete: { TableName: graph(), Key: controlListKey(kind, owner, erased) } }],
      ['mirror', { Delete: { TableName: graph(), Key: mirrorKey(kind, owner, erased) } }],
    ]);
    return out.ok ? false : out.failed.has('check') ? true : AGAIN;
  });
  if (lifted) {
    // Lifted meanwhile: what is left of it names the erased user.
    await deleteControlItem(controlListKey(kind, owner, erased));
    await deleteControlItem(mirrorKey(kind, owner, erased));
  }
}
