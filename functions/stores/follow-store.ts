/**
 * Follows, in the graph table: edges, both lists' entries, profiles with their follower-count
 * shards and `pulled` flags. The one store that writes these items: the controls' and an import's
 * transactions take their parts from here (mutedFlagParts, countUpdates). Every key comes from
 * model/; other stores own the graph table's other items (controls-store, notification-store,
 * social-store, erasure-store, follow-import-store's journal, feed-store's foreignId markers).
 *
 * A follow or unfollow is one transaction: the edge (whose condition makes a repeat a no-op),
 * both list entries, both counters and — for a pulled followee — the follower's pulled set in
 * their home-feed head, so counters stay exact and the pulled set in step under any concurrency.
 * The followee's count is one of its follower-count shards (model/profile.ts), so follows of one
 * user at once do not all hold one item; a profile read sums them (one Query).
 */
import { DeleteCommand, GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { erasureShardKey } from '../model/erasure.js';
import { activeEdgeItem, type Edge, type EdgeState, followEdgeKey, followOrder, parseEdge, type PendingFlag } from '../model/follow-edge.js';
import { type CountChange, type FollowPair, importTicks } from '../model/follow-import.js';
import { type FollowList, followListItem, followListKey, followListPartition, memberOfListSortKey } from '../model/follow-lists.js';
import { controlCheckKey } from '../model/user-controls.js';
import { allFollowerShardKeys, followerShardKey, followerShardOf, parseProfile, type Profile, PROFILE_PREFIX, profileKey } from '../model/profile.js';
import { doc } from '../platform/clients.js';
import { isConditionalCheckFailed } from '../platform/dynamo/dynamo-errors.js';
import { transact, type TxItem, type TxPart } from '../platform/dynamo/transact.js';
import { batchWriteAll } from '../platform/dynamo/batch-write.js';
import { AGAIN, RETRY, retrying } from '../platform/retry.js';
import { type Item, mapPage, type Page, queryAll, queryListPage, queryPage, sortKeyOf } from '../platform/dynamo/query.js';
import { batchGetAll } from '../platform/dynamo/batch-get.js';
import { deletePartitionPage } from '../platform/dynamo/partition.js';
import { tableName } from '../platform/env.js';
import { addPulledUpdate, removePulledUpdate } from './feed-store.js';

const graph = () => tableName('graph');

// ---- profiles ----------------------------------------------------------------------------------

/** Any keys of the graph table, strongly consistent, in as few BatchGets as they fit (100 keys each): a follow's or a notify batch's shared read. */
export function readGraphKeys(keys: readonly Item[]): Promise<Item[]> {
  return batchGetAll(graph(), keys, { consistent: true });
}

/**
 * A user's profile: the profile item and its follower-count shards, summed (model/profile.ts) —
 * one Query of one partition, 1 read unit (strongly consistent) for up to 4 KB of them.
 */
export async function getProfile(userId: string, opts: { consistent?: boolean } = {}): Promise<Profile> {
  const { items } = await queryPage({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': profileKey(userId).pk, ':p': PROFILE_PREFIX },
    ConsistentRead: opts.consistent,
  });
  return parseProfile(items);
}

/**
 * Set the `pulled` flag on the profile and on every follower-count shard, in one transaction, so
 * a follow's transaction (which checks the flag on its own shard) sees one value everywhere. It
 * may lose a race with a follow on a shard: retried (platform/retry.ts; past it, the job's
 * message comes back).
 */
export async function setPulled(author: string, pulled: boolean): Promise<void> {
  const set = (Key: Record<string, string>) => ({
    Update: { TableName: graph(), Key, UpdateExpression: 'SET pulled = :p', ExpressionAttributeValues: { ':p': pulled } },
  });
  // Unpulled: the profile forgets since when (see markPulledSince).
  const profile = pulled ? set(profileKey(author)) : { Update: { ...set(profileKey(author)).Update, UpdateExpression: 'SET pulled = :p REMOVE pulledSince' } };
  const parts: TxPart<string>[] = [['profile', profile], ...allFollowerShardKeys(author).map((key, i) => [`shard:${i}`, set(key)] as const)];
  await retrying(`set ${author} pulled=${pulled}`, RETRY.request, async () => ((await transact(parts)).ok ? undefined : AGAIN));
}

/**
 * After setPulled(author, true) committed: the instant from which every fan-out reads `pulled` (a
 * read after the commit sees it, and this clock reading is taken after the commit). A post written
 * later was never copied to followers — unless an unpull ran since, which removes this mark.
 */
export async function markPulledSince(author: string, ticks: bigint): Promise<void> {
  try {
    await doc.send(
      new UpdateCommand({
        TableName: graph(),
        Key: profileKey(author),
        UpdateExpression: 'SET pulledSince = :t',
        ConditionExpression: 'pulled = :true',
        ExpressionAttributeValues: { ':t': ticks, ':true': true },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error; // unpulled meanwhile: no mark
  }
}

// ---- edges -------------------------------------------------------------------------------------

export async function getEdge(follower: string, followee: string): Promise<Edge | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: graph(), Key: followEdgeKey(follower, followee), ConsistentRead: true }));
  return parseEdge(Item);
}

export type TxOutcome = 'done' | 'condition_failed' | 'conflict';

/** The parts of a follow's or an unfollow's transaction (named: outcomes are read by name). */
type EdgePart = 'edge' | 'followersEntry' | 'followingEntry' | 'followeeShard' | 'followerProfile' | 'block' | 'mute' | 'erasure' | 'pulledSet';

/**
 * Create (or renew a gone) edge at `ticks`. `pulled` is the followee's flag as last read: the
 * transaction requires it unchanged (on follower-count shard `shard`, which it adds 1 to, and
 * whose erase-mark copy it checks: see model/profile.ts), and for a pulled followee adds them to
 * the follower's pulled set.
 * The follower's `following` counter must stay below `maxFollowing`: the condition is part of the
 * transaction, so concurrent follows can never take it past the limit ('limit' when it would).
 * An existing active edge wins over the limit ('condition_failed': the repeat is a no-op).
 */
export async function createEdge(
  follower: string,
  followee: string,
  ticks: bigint,
  pulled: boolean,
  maxFollowing: number,
  muted: boolean,
  shard = followerShardOf(follower),
): Promise<TxOutcome | 'limit' | 'blocked' | 'mute_changed' | 'erased'> {
  // A muted follow backfills nothing and is never in the pulled set (its posts stay out of the feed).
  const edge = activeEdgeItem(follower, followee, ticks, !pulled && !muted, muted);
  const out = await transact<EdgePart>([
    [
      'edge',
      {
        Put: {
          TableName: graph(),
          Item: edge,
          ConditionExpression: 'attribute_not_exists(pk) OR #state = :gone',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':gone': 'gone' },
        },
      },
    ],
    ['followersEntry', { Put: { TableName: graph(), Item: followListItem('followers', followee, edge.order, follower, muted) } }],
    ['followingEntry', { Put: { TableName: graph(), Item: followListItem('following', follower, edge.order, followee) } }],
    [
      'followeeShard',
      {
        Update: {
          TableName: graph(),
          Key: followerShardKey(followee, shard),
          UpdateExpression: 'ADD followers :one',
          ConditionExpression: pulled ? 'pulled = :true' : 'attribute_not_exists(pulled) OR pulled = :false',
          ExpressionAttributeValues: { ':one': 1, ...(pulled ? { ':true': true } : { ':false': false }) },
        },
      },
    ],
    [
      'followerProfile',
      {
        Update: {
          TableName: graph(),
          Key: profileKey(follower),
          UpdateExpression: 'ADD following :one, graphVersion :one',
          ConditionExpression: 'attribute_not_exists(following) OR following < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': maxFollowing },
        },
      },
    ],
    // The followee has not blocked the follower; the follower's mute of them is as read.
    ['block', { ConditionCheck: { TableName: graph(), Key: controlCheckKey('block', followee, follower), ConditionExpression: 'attribute_not_exists(pk)' } }],
    [
      'mute',
      {
        ConditionCheck: {
          TableName: graph(),
          Key: controlCheckKey('mute', follower, followee),
          ConditionExpression: muted ? 'attribute_exists(pk)' : 'attribute_not_exists(pk)',
        },
      },
    ],
    // The followee is not being erased (its copy of the mark on this shard; the caller read the mark itself).
    ['erasure', { ConditionCheck: { TableName: graph(), Key: erasureShardKey(followee, shard), ConditionExpression: 'attribute_not_exists(pk)' } }],
    pulled && !muted && ['pulledSet', { Update: addPulledUpdate(follower, followee) }],
  ]);
  if (out.ok) return 'done';
  const failed = out.failed;
  if (!failed.has('edge') && failed.has('followerProfile')) return 'limit';
  if (failed.has('block')) return 'blocked';
  if (failed.has('mute')) return 'mute_changed';
  if (failed.has('erasure')) return 'erased';
  return failed.has('edge') ? 'condition_failed' : 'conflict'; // a repeat, or a lost race (the pulled flag changed, a conflict)
}

/**
 * Turn the active edge (as read: `order`) gone, dropping both list entries, counters and
 * pulled-set entry. The followee's count goes down on follower-count shard `shard` (any shard: they sum).
 */
export async function removeEdge(follower: string, followee: string, order: string, shard = followerShardOf(follower)): Promise<TxOutcome> {
  const out = await transact<EdgePart>([
    [
      'edge',
      {
        Update: {
          TableName: graph(),
          Key: followEdgeKey(follower, followee),
          UpdateExpression: 'SET #state = :gone, cleanupPending = :true REMOVE backfillPending',
          ConditionExpression: '#state = :active AND #order = :order',
          ExpressionAttributeNames: { '#state': 'state', '#order': 'order' },
          ExpressionAttributeValues: { ':gone': 'gone', ':active': 'active', ':order': order, ':true': true },
        },
      },
    ],
    ['followersEntry', { Delete: { TableName: graph(), Key: followListKey('followers', followee, order, follower) } }],
    ['followingEntry', { Delete: { TableName: graph(), Key: followListKey('following', follower, order, followee) } }],
    [
      'followeeShard',
      {
        Update: {
          TableName: graph(),
          Key: followerShardKey(followee, shard),
          UpdateExpression: 'ADD followers :minus',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ],
    [
      'followerProfile',
      {
        Update: {
          TableName: graph(),
          Key: profileKey(follower),
          UpdateExpression: 'ADD following :minus, graphVersion :one',
          ExpressionAttributeValues: { ':minus': -1, ':one': 1 },
        },
      },
    ],
    // Unconditional: the followee may have been pulled since the edge was read.
    ['pulledSet', { Update: removePulledUpdate(follower, followee) }],
  ]);
  return out.ok ? 'done' : out.failed.has('edge') ? 'condition_failed' : 'conflict';
}

/**
 * Add a pulled `author` to `follower`'s pulled set, only while their edge is still active — a pull
 * job reading an old follower page must not re-add an author just unfollowed.
 */
export async function addPulledWhileFollowing(follower: string, author: string): Promise<void> {
  await retrying(`add ${author} to ${follower}'s pulled set`, RETRY.request, async () => {
    const out = await transact<'edge' | 'pulledSet'>([
      [
        'edge',
        {
          ConditionCheck: {
            TableName: graph(),
            Key: followEdgeKey(follower, author),
            // …and not muted: a muted author's posts stay out of the follower's feed.
            ConditionExpression: '#state = :active AND attribute_not_exists(muted)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':active': 'active' },
          },
        },
      ],
      ['pulledSet', { Update: addPulledUpdate(follower, author) }],
    ]);
    return out.ok || out.failed.has('edge') ? undefined : AGAIN; // done, or unfollowed (muted) meanwhile
  });
}

/** Clears a pending flag once its job finished, unless the edge moved on meanwhile. */
export async function clearPending(follower: string, followee: string, flag: PendingFlag, whileState: EdgeState): Promise<void> {
  try {
    await doc.send(
      new UpdateCommand({
        TableName: graph(),
        Key: followEdgeKey(follower, followee),
        UpdateExpression: `REMOVE ${flag}`,
        ConditionExpression: '#state = :state',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':state': whileState },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** Delete an edge that is still gone at `order` (a follow again since keeps it). */
export async function deleteGoneEdge(follower: string, followee: string, order: string): Promise<void> {
  try {
    await doc.send(
      new DeleteCommand({
        TableName: graph(),
        Key: followEdgeKey(follower, followee),
        ConditionExpression: '#state = :gone AND #order = :order',
        ExpressionAttributeNames: { '#state': 'state', '#order': 'order' },
        ExpressionAttributeValues: { ':gone': 'gone', ':order': order },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** Delete an edge item whatever its state (an erase, after removeEdge adjusted the counts). */
export async function deleteEdgeItem(follower: string, followee: string): Promise<void> {
  await doc.send(new DeleteCommand({ TableName: graph(), Key: followEdgeKey(follower, followee) }));
}

/**
 * Delete up to `limit` items of each of the follows' partitions that belong to `userId` alone —
 * profile and count shards, edges, both lists (an erase, after the follows were undone and
 * counted). Returns how many in all: more than 0 while any remain.
 */
export async function deleteOwnFollowItems(userId: string, limit: number): Promise<number> {
  let deleted = 0;
  for (const pk of [profileKey(userId).pk, followEdgeKey(userId, '').pk, followListPartition('followers', userId), followListPartition('following', userId)]) {
    deleted += await deletePartitionPage({ table: graph(), pk, sortKey: 'sk' }, limit);
  }
  return deleted;
}

// ---- lists -------------------------------------------------------------------------------------

/**
 * An entry of a follow list; on a followers list, `muted`: this follower muted the list's owner, and
 * `activeUntil`: the follower's activity bound (model/reader-activity.ts).
 */
export interface FollowEntry {
  readonly userId: string;
  readonly muted: boolean;
  readonly activeUntil?: bigint;
}

/**
 * One page of a user's followers or followings, newest follow first, after sort key `after`;
 * `last` (a sort key) only when more follow. The API's lists and the jobs walking a list (fan-out,
 * erase) read it alike.
 */
export async function listPage(
  which: FollowList,
  userId: string,
  limit: number,
  after?: string,
  opts: { readonly consistent?: boolean } = {},
): Promise<Page<FollowEntry, string>> {
  const partition = followListPartition(which, userId);
  const page = await queryListPage(
    {
      TableName: graph(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ProjectionExpression: 'sk, muted, activeUntil',
      ...(opts.consistent ? { ConsistentRead: true } : {}),
      Limit: limit,
      ...(after ? { ExclusiveStartKey: { pk: partition, sk: after } } : {}),
    },
    sortKeyOf,
  );
  return mapPage(
    page,
    (i) => ({
      userId: memberOfListSortKey(String(i.sk)),
      muted: i.muted === true,
      ...(i.activeUntil === undefined ? {} : { activeUntil: BigInt(String(i.activeUntil)) }),
    }),
    String,
  );
}

// ---- reader activity (services/reader-activity/) ----------------------------------------------

/** A follow of the reader's, from their edge: whom, the list order, and whether they muted them. */
export interface Followee {
  readonly followee: string;
  readonly order: string;
  readonly muted: boolean;
}

/**
 * One page of `reader`'s active follows, from their edges (`follow#<reader>`, by followee id): the
 * edge says what the list entries do not — muted or not — and the order that keys their entry on
 * the followee's followers list. `last` only when more may follow.
 */
export async function followeesPage(reader: string, limit: number, after?: string): Promise<Page<Followee, string>> {
  const pk = followEdgeKey(reader, '').pk;
  const page = await queryListPage(
    {
      TableName: graph(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'sk, #state, #order, muted',
      ExpressionAttributeNames: { '#state': 'state', '#order': 'order' },
      Limit: limit,
      ...(after === undefined ? {} : { ExclusiveStartKey: { pk, sk: after } }),
    },
    sortKeyOf,
  );
  return {
    items: page.items.filter((i) => i.state === 'active').map((i) => ({ followee: String(i.sk), order: String(i.order), muted: i.muted === true })),
    ...(page.last === undefined ? {} : { last: page.last }),
  };
}

/**
 * Raise `reader`'s activity bound on their entry in `followee`'s followers list to `until` — never
 * lower it, never create an entry an unfollow deleted — or, with `until` undefined (`off`), remove it.
 */
export async function stampFollowerEntry(followee: string, order: string, reader: string, until: bigint | undefined): Promise<void> {
  try {
    await doc.send(new UpdateCommand(stampUpdate(followListKey('followers', followee, order, reader), until)));
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error; // unfollowed, or a later stamp was here first
  }
}

/**
 * The update that raises the activity bound on the graph entry at `key` (a followers entry, or
 * tag-store's tag push follower, each sent by its owner) to `until`, never lower, never creating a
 * deleted entry; `until` undefined removes it. A failed condition means nothing to do.
 */
export function stampUpdate(key: { pk: string; sk: string }, until: bigint | undefined): UpdateCommandInput {
  const raise = until !== undefined;
  return {
    TableName: graph(),
    Key: key,
    UpdateExpression: raise ? 'SET activeUntil = :u' : 'REMOVE activeUntil',
    ConditionExpression: raise ? 'attribute_exists(pk) AND (attribute_not_exists(activeUntil) OR activeUntil < :u)' : 'attribute_exists(pk)',
    ...(raise ? { ExpressionAttributeValues: { ':u': until } } : {}),
  };
}

// ---- imported follows (services/bulk/follows.ts) ---------------------------------------------------------------------------

export interface NewFollow {
  readonly index: number;
  readonly muted: boolean;
  readonly backfillPending: boolean;
}

/**
 * The follows of a batch planned at `nonce`: both list entries of every one first, then the edges —
 * so an unfollow (which needs the edge) never runs between an edge and its entries. Every key and
 * value is fixed by the plan: writing them again rewrites the same items.
 */
export async function writeImportedFollows(pairs: readonly FollowPair[], nonce: bigint, follows: readonly NewFollow[]): Promise<void> {
  const entries = follows.flatMap(({ index, muted }) => {
    const { follower, followee } = pairs[index]!;
    const order = followOrder(importTicks(nonce, index));
    return [followListItem('followers', followee, order, follower, muted), followListItem('following', follower, order, followee)];
  });
  await batchWriteAll(
    graph(),
    entries.map((Item) => ({ PutRequest: { Item } })),
  );
  const edges = follows.map(({ index, muted, backfillPending }) =>
    activeEdgeItem(pairs[index]!.follower, pairs[index]!.followee, importTicks(nonce, index), backfillPending, muted),
  );
  await batchWriteAll(
    graph(),
    edges.map((Item) => ({ PutRequest: { Item } })),
  );
}

/** Delete both list entries of follows at these orders (entries no edge stands behind). */
export async function deleteListEntries(entries: readonly { follower: string; followee: string; order: string }[]): Promise<void> {
  const keys = entries.flatMap(({ follower, followee, order }) => [
    followListKey('followers', followee, order, follower),
    followListKey('following', follower, order, followee),
  ]);
  await batchWriteAll(
    graph(),
    keys.map((Key) => ({ DeleteRequest: { Key } })),
  );
}

/**
 * `follower`'s following-list entries at orders since `sinceTicks` (newest first): the follows they
 * made from then on. One Query of a key range of their list.
 */
export async function followsSince(follower: string, sinceTicks: bigint, untilTicks: bigint): Promise<{ followee: string; order: string }[]> {
  const items = await queryAll({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :newest AND :oldest',
    // An entry's sort key is `<order>#<followee>`; '$' sorts right after '#'.
    ExpressionAttributeValues: {
      ':pk': followListPartition('following', follower),
      ':newest': followOrder(untilTicks),
      ':oldest': `${followOrder(sinceTicks)}$`,
    },
    ConsistentRead: true,
  });
  return items.map((i) => ({ followee: memberOfListSortKey(String(i.sk)), order: String(i.sk).slice(0, String(i.sk).indexOf('#')) }));
}

/** Count changes of follows written outside the follow transaction (an import): followers on follower-count shard `shard` of each followee, following on each follower's profile item. */
export const countUpdates = (changes: readonly CountChange[], shard: number): TxItem[] =>
  changes.map((c) => ({
    Update: {
      TableName: graph(),
      Key: c.counter === 'followers' ? followerShardKey(c.userId, shard) : profileKey(c.userId),
      UpdateExpression: `ADD ${c.counter} :n`,
      ExpressionAttributeValues: { ':n': c.by },
    },
  }));

// ---- parts of the controls' transactions (stores/controls-store.ts) ------------------------------

/** The follow edge as read, when the muter follows the target. */
export interface FollowRef {
  readonly order: string;
}

/**
 * A mute's (or unmute's) parts on the follow: the edge's and the followers-list entry's `muted`
 * flag, the edge conditioned on being the one read (`order`); an unmute also marks the backfill it owes.
 */
export function mutedFlagParts(user: string, target: string, follow: FollowRef, set: boolean, owesBackfill = false): TxPart<'edge' | 'followersEntry'>[] {
  return [
    [
      'edge',
      {
        Update: {
          TableName: graph(),
          Key: followEdgeKey(user, target),
          UpdateExpression: set ? 'SET muted = :t' : owesBackfill ? 'REMOVE muted SET backfillPending = :t' : 'REMOVE muted',
          ConditionExpression: '#state = :active AND #order = :order',
          ExpressionAttributeNames: { '#state': 'state', '#order': 'order' },
          ExpressionAttributeValues: { ':active': 'active', ':order': follow.order, ...(set || owesBackfill ? { ':t': true } : {}) },
        },
      },
    ],
    [
      'followersEntry',
      {
        Update: {
          TableName: graph(),
          Key: followListKey('followers', target, follow.order, user),
          UpdateExpression: set ? 'SET muted = :t' : 'REMOVE muted',
          ...(set ? { ExpressionAttributeValues: { ':t': true } } : {}),
        },
      },
    ],
  ];
}

/** A condition: `user` does not follow `target` (no edge, or one that is not active). */
export function noActiveFollow(user: string, target: string): TxItem {
  return {
    ConditionCheck: {
      TableName: graph(),
      Key: followEdgeKey(user, target),
      ConditionExpression: 'attribute_not_exists(pk) OR #state <> :active',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':active': 'active' },
    },
  };
}

/** The followee's `pulled` flag is still as read (the pull job sets it on the profile and its shards at once). */
export function pulledAsRead(target: string, pulled: boolean): TxItem {
  return {
    ConditionCheck: {
      TableName: graph(),
      Key: profileKey(target),
      ConditionExpression: pulled ? 'pulled = :true' : 'attribute_not_exists(pulled) OR pulled = :false',
      ExpressionAttributeValues: pulled ? { ':true': true } : { ':false': false },
    },
  };
}
