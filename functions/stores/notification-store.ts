/**
 * Notification groups in the graph table (model/notification.ts). Every change to a group is all or
 * nothing, in one transaction (its own, or one it shares with other groups' changes:
 * writeGroupChanges): the actors' claims (conditioned on what was read), the group (conditioned on
 * its version), its order item moved, and the head's per-day counts — so counts stay exact, and a
 * redelivered or concurrent job either finds its events applied or loses the race and retries.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  actorIndexKey,
  actorIndexPartition,
  CLAIM_PREFIX,
  claimKey,
  claimPrefix,
  gidOfClaimSk,
  type CountDelta,
  GROUP_PREFIX,
  groupAttributes,
  groupKey,
  type GroupState,
  headAttribute,
  notificationHeadKey,
  notificationPartition,
  objectGroupsPrefix,
  ORDER_PREFIX,
  orderBoundFor,
  orderKey,
  parseGroup,
  strangerQuotaKey,
} from '../model/notification.js';
import { timelineKey } from '../model/timeline-item.js';
import { doc } from '../platform/clients.js';
import { batchWriteAll } from '../platform/dynamo/batch-write.js';
import { itemId, packTransactions, transact, type TxItem } from '../platform/dynamo/transact.js';
import { type Item, type Page, queryAll, queryListPage, queryPage, sortKeyOf } from '../platform/dynamo/query.js';
import { tableName } from '../platform/env.js';
import { readGraphKeys } from './follow-store.js';

const graph = () => tableName('graph');

/** A claim as read: its event ids (absent claim = the actor is new to the group). */
export interface Claim {
  readonly actor: string;
  readonly events: ReadonlySet<string>;
}

/** The keys of a group read: the group, the actors' claims and (`withHead`) the recipient's head. */
export function groupReadKeys(recipient: string, gid: string, actors: readonly string[], opts: { withHead?: boolean } = {}): Item[] {
  return [groupKey(recipient, gid), ...actors.map((a) => claimKey(recipient, gid, a)), ...(opts.withHead ? [notificationHeadKey(recipient)] : [])];
}

export interface GroupRead {
  readonly group: GroupState | undefined;
  readonly claims: Map<string, Claim>;
  readonly head: Item | undefined;
}

/** A group read from the items a strongly consistent read of (at least) groupReadKeys found (other keys' items are ignored). */
export function groupReadFrom(found: readonly Item[], recipient: string, gid: string, actors: readonly string[]): GroupRead {
  const gk = groupKey(recipient, gid);
  const hk = notificationHeadKey(recipient);
  const claimSks = new Set(actors.map((a) => claimKey(recipient, gid, a).sk));
  const claims = new Map<string, Claim>();
  let group: GroupState | undefined;
  let head: Item | undefined;
  for (const item of found) {
    if (item.pk !== gk.pk) continue; // a shared read holds other recipients' items too
    if (item.sk === gk.sk) group = parseGroup(item);
    else if (item.sk === hk.sk) head = item;
    else if (claimSks.has(String(item.sk)) && typeof item.actor === 'string')
      claims.set(item.actor, { actor: item.actor, events: (item.events as Set<string> | undefined) ?? new Set() });
  }
  return { group, claims, head };
}

/**
 * The group and the given actors' claims, strongly consistent (one BatchGet). `withHead`: the
 * recipient's head too, in the same BatchGet (the notify job's transaction prunes its stale days).
 */
export async function readGroupAndClaims(recipient: string, gid: string, actors: readonly string[], opts: { withHead?: boolean } = {}): Promise<GroupRead> {
  return groupReadFrom(await readGraphKeys(groupReadKeys(recipient, gid, actors, opts)), recipient, gid, actors);
}

/** These recipients' notification heads, strongly consistent (one BatchGet per 100). */
export async function readHeadItems(recipients: readonly string[]): Promise<Map<string, Item>> {
  const items = await readGraphKeys(recipients.map(notificationHeadKey));
  const byPk = new Map(recipients.map((r) => [notificationHeadKey(r).pk, r]));
  return new Map(items.flatMap((i) => (byPk.has(String(i.pk)) ? [[byPk.get(String(i.pk))!, i] as const] : [])));
}

export async function readGroup(recipient: string, gid: string): Promise<GroupState | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: graph(), Key: groupKey(recipient, gid), ConsistentRead: true }));
  return parseGroup(Item as Item | undefined);
}

export async function readHeadItem(recipient: string): Promise<Item | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: graph(), Key: notificationHeadKey(recipient) }));
  return Item as Item | undefined;
}

/** The head update for a change of counts on `day`, pruning stale days' attributes; undefined if nothing changes. */
function headUpdate(recipient: string, day: string, delta: CountDelta, stale: readonly string[]) {
  const adds = (['unseen', 'unread', 'groups'] as const).filter((c) => delta[c] !== 0);
  if (adds.length === 0 && stale.length === 0) return undefined;
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const addParts = adds.map((c, i) => {
    names[`#c${i}`] = headAttribute(c, day);
    values[`:c${i}`] = delta[c];
    return `#c${i} :c${i}`;
  });
  const removeParts = stale.filter((s) => !adds.some((c) => headAttribute(c, day) === s)).map((s, i) => ((names[`#s${i}`] = s), `#s${i}`));
  const expression = [addParts.length ? `ADD ${addParts.join(', ')}` : '', removeParts.length ? `REMOVE ${removeParts.join(', ')}` : ''].join(' ').trim();
  return {
    Update: {
      TableName: graph(),
      Key: notificationHeadKey(recipient),
      UpdateExpression: expression,
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

const groupCondition = (previous: GroupState | undefined) =>
  previous
    ? { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': previous.version } }
    : { ConditionExpression: 'attribute_not_exists(pk)' };

export interface GroupChange {
  readonly recipient: string;
  readonly previous: GroupState | undefined;
  readonly next: GroupState;
  readonly delta: CountDelta;
  /** Claims to write: the actor, the claim's event count as read (undefined = absent), the ids to add. */
  readonly claims?: readonly { actor: string; readSize: number | undefined; add: readonly string[] }[];
  /** An original that must still be live (not deleted) for the change to apply. */
  readonly liveOriginal?: { author: string; rk: bigint };
  /**
   * Senders the recipient does not follow who start this (new) group: each one's count of groups
   * started on the group's day goes up by one, conditioned on staying within `limit`.
   */
  readonly strangers?: { readonly actors: readonly string[]; readonly limit: number; readonly expiresAt: number };
  readonly expiresAt: number | undefined;
  readonly staleHead: readonly string[];
}

/** `overLimit`: these strangers had started their limit of groups that day (nothing was written). */
export type ChangeOutcome = 'done' | 'retry' | 'source_gone' | { readonly overLimit: readonly string[] };

/**
 * A group's new state and its order item, the group conditioned on `previous` (as read); the old
 * order item goes when the group's update time moved (a page shows it at its new place).
 */
function groupPuts(recipient: string, previous: GroupState | undefined, next: GroupState, expiresAt: number | undefined): TxItem[] {
  const stored = { ...groupAttributes(next), expiresAt };
  const moved = previous !== undefined && previous.updatedTicks !== next.updatedTicks;
  return [
    { Put: { TableName: graph(), Item: { ...groupKey(recipient, next.gid), ...stored }, ...groupCondition(previous) } },
    ...(moved ? [{ Delete: { TableName: graph(), Key: orderKey(recipient, previous.updatedTicks, previous.gid) } }] : []),
    { Put: { TableName: graph(), Item: { ...orderKey(recipient, next.updatedTicks, next.gid), ...stored } } },
  ];
}

/** A group and its order item deleted, if the group is still at `state`'s version. */
const groupDeletes = (recipient: string, state: GroupState): TxItem[] => [
  { Delete: { TableName: graph(), Key: groupKey(recipient, state.gid), ...groupCondition(state) } },
  { Delete: { TableName: graph(), Key: orderKey(recipient, state.updatedTicks, state.gid) } },
];

/** Send a transaction; false if it was cancelled (a condition failed or it lost a race: re-read). */
async function transactOrLost(items: readonly TxItem[]): Promise<boolean> {
  return (await transact(items.map((item, i) => [`item${i}`, item] as const))).ok;
}

/** The named parts of one group change's transaction: read by name, not by position (platform/dynamo/transact.ts). */
function groupChangeParts(change: GroupChange): (readonly [string, TxItem])[] {
  const { recipient, previous, next, expiresAt } = change;
  const parts: (readonly [string, TxItem])[] = [];
  if (change.liveOriginal) {
    parts.push([
      'source',
      {
        ConditionCheck: {
          TableName: tableName('feed'),
          Key: timelineKey(change.liveOriginal.author, change.liveOriginal.rk),
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
        },
      },
    ]);
  }
  for (const c of change.claims ?? []) {
    // A new claim also goes into the actor's index (erasing the actor walks it).
    if (c.readSize === undefined) {
      parts.push([
        `index:${c.actor}`,
        {
          Put: {
            TableName: graph(),
            Item: { ...actorIndexKey(c.actor, recipient, next.gid), recipient, gid: next.gid, ...(expiresAt === undefined ? {} : { expiresAt }) },
          },
        },
      ]);
    }
    parts.push([
      `claim:${c.actor}`,
      {
        Update: {
          TableName: graph(),
          Key: claimKey(recipient, next.gid, c.actor),
          UpdateExpression: expiresAt === undefined ? 'ADD events :e SET actor = :a' : 'ADD events :e SET actor = :a, expiresAt = :x',
          ConditionExpression: c.readSize === undefined ? 'attribute_not_exists(pk)' : 'size(events) = :n',
          ExpressionAttributeValues: {
            ':e': new Set(c.add),
            ':a': c.actor,
            ...(expiresAt === undefined ? {} : { ':x': expiresAt }),
            ...(c.readSize === undefined ? {} : { ':n': c.readSize }),
          },
        },
      },
    ]);
  }
  groupPuts(recipient, previous, next, expiresAt).forEach((item, i) => parts.push([`group:${i}`, item]));
  const head = headUpdate(recipient, next.day, change.delta, change.staleHead);
  if (head) parts.push(['head', head]);
  for (const actor of change.strangers?.actors ?? []) parts.push([`quota:${actor}`, quotaUpdate(recipient, next.day, actor, change.strangers!)]);
  return parts;
}

/** Apply one group change atomically (see the file comment). */
export async function writeGroupChange(change: GroupChange): Promise<ChangeOutcome> {
  const out = await transact(groupChangeParts(change));
  if (out.ok) return 'done';
  if (out.failed.has('source')) return 'source_gone';
  const overLimit = (change.strangers?.actors ?? []).filter((actor) => out.failed.has(`quota:${actor}`));
  return overLimit.length > 0 ? { overLimit } : 'retry';
}

/** What writeGroupChanges did. */
export interface PackedWrites {
  /** `written[i]`: change i committed. */
  readonly written: boolean[];
  /** Errors other than a cancellation (the transactions they hit wrote nothing): the caller's to report. */
  readonly errors: unknown[];
}

/**
 * Several group changes, each all or nothing, in as few transactions as they fit
 * (packTransactions: a transaction costs mostly per call; changes that share an item, such as one
 * recipient's head, go to different transactions, sent one after another). A transaction a
 * condition cancelled is sent once more without the changes whose items failed, so one clash does
 * not cost every other change a transaction of its own. A change not written — a lost race, a
 * deleted source, a stranger past the limit, an error — is the caller's to apply on its own
 * (writeGroupChange, whose outcome says why): a transaction that did not commit wrote nothing.
 */
export async function writeGroupChanges(changes: readonly GroupChange[]): Promise<PackedWrites> {
  const parts = changes.map((c, i) => groupChangeParts(c).map(([name, item]) => [`${i}/${name}`, item] as const));
  const byName = new Map(parts.flat());
  const written = changes.map(() => false);
  const errors: unknown[] = [];
  const send = async (members: readonly number[], last: boolean): Promise<void> => {
    for (const pack of packTransactions(members.map((i) => parts[i]!))) {
      const sent = pack.members.map((k) => members[k]!);
      const out = await transact(pack.parts).catch((error: unknown) => void errors.push(error));
      if (!out) continue;
      if (out.ok) {
        for (const i of sent) written[i] = true;
        continue;
      }
      if (last || out.conflict) continue;
      // Every change that touches a failed item failed, the one whose part was sent for a shared check too.
      const failed = new Set([...out.failed].map((name) => itemId(byName.get(name)!)));
      const rest = sent.filter((i) => !parts[i]!.some(([, item]) => failed.has(itemId(item))));
      if (rest.length > 0 && rest.length < sent.length) await send(rest, true);
    }
  };
  await send(
    changes.map((_, i) => i),
    false,
  );
  return { written, errors };
}

/** One more group started by a stranger on `day`, within `limit` (the item expires `expiresAt`). */
function quotaUpdate(recipient: string, day: string, actor: string, strangers: { limit: number; expiresAt: number }) {
  return {
    Update: {
      TableName: graph(),
      Key: strangerQuotaKey(recipient, day, actor),
      UpdateExpression: 'ADD #started :one SET expiresAt = :x',
      ConditionExpression: 'attribute_not_exists(#started) OR #started < :limit',
      ExpressionAttributeNames: { '#started': 'started' },
      ExpressionAttributeValues: { ':one': 1, ':x': strangers.expiresAt, ':limit': strangers.limit },
    },
  };
}

/** Remove a group (its order item, the head's counts) if it is still at `state`'s version; then its claims. */
export async function removeGroup(recipient: string, state: GroupState, delta: CountDelta): Promise<boolean> {
  const head = headUpdate(recipient, state.day, delta, []);
  if (!(await transactOrLost([...groupDeletes(recipient, state), ...(head ? [head] : [])]))) return false;
  const claims = await queryAll({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': notificationPartition(recipient), ':p': claimPrefix(state.gid) },
    ProjectionExpression: 'pk, sk, actor',
    ConsistentRead: true,
  });
  await batchWriteAll(graph(), [
    ...claims.map((c) => ({ DeleteRequest: { Key: { pk: c.pk, sk: c.sk } } })),
    ...claims.map((c) => ({ DeleteRequest: { Key: actorIndexKey(String(c.actor), recipient, state.gid) } })),
  ]);
  return true;
}

/**
 * One page of groups, most recently updated first, updated at or after `sinceTicks` (the age
 * window), after the order key `afterSk` (a cursor).
 */
export async function groupPage(recipient: string, sinceTicks: bigint, limit: number, afterSk?: string): Promise<Page<GroupState, string>> {
  const page = await queryListPage(
    {
      TableName: graph(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
      ExpressionAttributeValues: {
        ':pk': notificationPartition(recipient),
        ':lo': afterSk ? `${afterSk}\u0000` : ORDER_PREFIX,
        ':hi': orderBoundFor(sinceTicks),
      },
      Limit: limit,
    },
    sortKeyOf,
  );
  // An order item that is no group (none is written so) is left out; the page still ends where it read.
  return { ...page, items: page.items.flatMap((i) => parseGroup(i) ?? []) };
}

/** The oldest `limit` groups inside the window (for count retention), oldest first. */
export const oldestGroups = (recipient: string, sinceTicks: bigint, limit: number): Promise<Item[]> =>
  queryAll(
    {
      TableName: graph(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
      ExpressionAttributeValues: { ':pk': notificationPartition(recipient), ':lo': ORDER_PREFIX, ':hi': orderBoundFor(sinceTicks) },
      ScanIndexForward: false,
      Limit: limit,
    },
    limit,
  );

/** Every group state of the recipient (bounded by retention), optionally only those about `object`. */
export async function allGroups(recipient: string, object?: string): Promise<GroupState[]> {
  const items = await queryAll({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': notificationPartition(recipient), ':p': object === undefined ? GROUP_PREFIX : objectGroupsPrefix(object) },
    ConsistentRead: true,
  });
  return items.flatMap((i) => parseGroup(i) ?? []);
}

/** Write a group's new state (seen/read marks) with its order copy and the head's counts. */
export async function writeGroupMark(
  recipient: string,
  previous: GroupState,
  next: GroupState,
  delta: CountDelta,
  expiresAt: number | undefined,
): Promise<boolean> {
  const head = headUpdate(recipient, next.day, delta, []);
  return transactOrLost([...groupPuts(recipient, previous, next, expiresAt), ...(head ? [head] : [])]);
}

/**
 * Take an actor out of a group (an erase), or some of their events (`partly`: a deleted post's):
 * their claim goes — or loses those events, conditioned on its size as read — and the group loses
 * them and their events, or goes entirely when nothing else is left. Conditioned on the group's
 * version as read.
 */
export async function dropActorFromGroup(
  recipient: string,
  previous: GroupState,
  next: GroupState | undefined,
  actor: string,
  delta: CountDelta,
  expiresAt: number | undefined,
  partly?: { readonly readSize: number; readonly remove: readonly string[] },
): Promise<boolean> {
  const head = headUpdate(recipient, previous.day, delta, []);
  const claim = claimKey(recipient, previous.gid, actor);
  return transactOrLost([
    ...(next ? groupPuts(recipient, previous, next, expiresAt) : groupDeletes(recipient, previous)),
    ...(partly
      ? [
          {
            Update: {
              TableName: graph(),
              Key: claim,
              UpdateExpression: 'DELETE events :e',
              ConditionExpression: 'size(events) = :n',
              ExpressionAttributeValues: { ':e': new Set(partly.remove), ':n': partly.readSize },
            },
          },
        ]
      : [{ Delete: { TableName: graph(), Key: claim } }, { Delete: { TableName: graph(), Key: actorIndexKey(actor, recipient, previous.gid) } }]),
    ...(head ? [head] : []),
  ]);
}

/**
 * Delete up to `limit` items of a user's notification feed (an erase), with the actors' index
 * entries of its claims (they name the user). Returns how many items it deleted.
 */
export async function deleteNotificationPage(recipient: string, limit: number): Promise<number> {
  const { items } = await queryPage({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': notificationPartition(recipient) },
    ProjectionExpression: 'pk, sk, actor',
    ConsistentRead: true,
    Limit: limit,
  });
  const claims = items.filter((i) => String(i.sk).startsWith(CLAIM_PREFIX) && typeof i.actor === 'string');
  await batchWriteAll(
    graph(),
    claims.map((c) => ({ DeleteRequest: { Key: actorIndexKey(String(c.actor), recipient, gidOfClaimSk(String(c.sk))) } })),
  );
  await batchWriteAll(
    graph(),
    items.map((i) => ({ DeleteRequest: { Key: { pk: i.pk, sk: i.sk } } })),
  );
  return items.length;
}

/** A page of the actor's index (the groups they are in, anyone's), for erasing them. */
export async function actorIndexPage(actor: string, limit: number): Promise<{ recipient: string; gid: string; key: { pk: string; sk: string } }[]> {
  const { items } = await queryPage({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': actorIndexPartition(actor) },
    ConsistentRead: true,
    Limit: limit,
  });
  return items.map((i) => ({ recipient: String(i.recipient), gid: String(i.gid), key: { pk: String(i.pk), sk: String(i.sk) } }));
}

/** Delete one index entry (its group is already gone or never existed). */
export async function deleteActorIndexEntry(key: { pk: string; sk: string }): Promise<void> {
  await batchWriteAll(graph(), [{ DeleteRequest: { Key: key } }]);
}
