/**
 * Hashtags' items (model/tag-items.ts, model/trend.ts): tag-feed entries in the feed table, tag
 * follows in the graph table, trend markers, counters and top lists in the stats table. The one
 * store that writes them; the follower's home-feed head (pulled tags) is feed-store's, whose
 * updates the follow transactions take.
 *
 * Access patterns:
 *   tag-feed page                  one Query of `g#<tag>` by rk range (feed-store pageInput)
 *   tag-feed entries in and out    BatchWriteItem puts/deletes by (g#tag, rk)
 *   a user's followed tags         Query `tagf#<user>` (GET /me/tags; cleanups)
 *   a tag's push followers         Query `tagfollowers#<tag>` (the tag fan-out's pages), with
 *                                  each one's activity bound (model/reader-activity.ts)
 *   a follower's activity bound    conditional UpdateItem of their `tagfollowers#` entry (stamp)
 *   a tag's entries since          Query `g#<tag>` by rk (a returning reader's write-back)
 *   follow / unfollow a tag        one transaction: the follow, the follower entry and count (push)
 *                                  or the follow and the head's pulled tags (pull)
 *   trend use                      one transaction per bucket: marker (attribute_not_exists) + counter
 *   trend top list                 GetItem; a conditional Put on its version
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CopySource } from '../model/feed-copy.js';
import { rkOf } from '../model/range-key.js';
import {
  parseTagFollow,
  type TagFollow,
  tagEntryOf,
  tagFeedKey,
  tagFeedPartition,
  tagFollowerKey,
  tagFollowersPartition,
  tagFollowItem,
  tagFollowKey,
  tagFollowPartition,
  tagMetaKey,
} from '../model/tag-items.js';
import type { TagKey } from '../model/tags.js';
import { parseTopList, type TopList, trendCounterKey, trendMarkerKey, trendTopKey } from '../model/trend.js';
import { doc } from '../platform/clients.js';
import { batchWriteAll } from '../platform/dynamo/batch-write.js';
import { isConditionalCheckFailed } from '../platform/dynamo/dynamo-errors.js';
import { type Item, mapPage, type Page, queryListPage, queryPage, sortKeyOf } from '../platform/dynamo/query.js';
import { transact } from '../platform/dynamo/transact.js';
import { tableName } from '../platform/env.js';
import { stampUpdate } from './follow-store.js';
import type { EditedState } from '../model/editable-fields.js';
import { addPulledTagUpdate, editUpdate, itemsSince, type KeyRange, pageInput, removePulledTagUpdate } from './feed-store.js';

const feed = () => tableName('feed');
const graph = () => tableName('graph');
const stats = () => tableName('stats');

// ---- tag feeds ---------------------------------------------------------------------------------

/** Put the entries of originals in their tags' feeds (idempotent: same keys on every retry). */
export async function putTagEntries(entries: readonly { source: CopySource; tag: TagKey }[]): Promise<void> {
  await batchWriteAll(
    feed(),
    entries.map(({ source, tag }) => ({ PutRequest: { Item: tagEntryOf(source, tag) } })),
  );
}

/**
 * Bring the entries of the post at `rk` in `tags`' feeds to an edit's `state`, where they exist at
 * an older version (never creating one a delete removed): one write unit each.
 */
export async function updateTagEntries(tags: readonly TagKey[], rk: bigint, state: EditedState): Promise<void> {
  await Promise.all(tags.map((tag) => sendUnlessStale(editUpdate(tagFeedKey(tag, rk), state))));
}

/** Delete the entries at (tag, rk). Deleting an absent key is harmless. */
export async function deleteTagEntries(keys: readonly { tag: TagKey; rk: bigint }[]): Promise<void> {
  await batchWriteAll(
    feed(),
    keys.map((k) => ({ DeleteRequest: { Key: tagFeedKey(k.tag, k.rk) } })),
  );
}

/** The one Query of a page of a tag's feed (entries are deleted with their post, never marked). */
export const tagFeedPageInput = (tag: TagKey, range: KeyRange, verbs?: readonly string[]) =>
  pageInput(tagFeedPartition(tag), range, { hideTombstones: false, verbs });

/** A page of a tag's entries, newest first, after rk `after`: rk, actor and tags only (a cleanup's candidates). */
export async function tagEntryKeys(tag: TagKey, limit: number, after?: bigint): Promise<Page<{ rk: bigint; actor: string; tags: unknown }, bigint>> {
  const page = await queryPage({
    TableName: feed(),
    KeyConditionExpression: after === undefined ? 'pk = :pk' : 'pk = :pk AND rk > :after',
    ExpressionAttributeValues: { ':pk': tagFeedPartition(tag), ...(after === undefined ? {} : { ':after': after }) },
    ProjectionExpression: 'rk, actor, tags',
    Limit: limit,
  });
  return mapPage(
    page,
    (i) => ({ rk: rkOf(i.rk), actor: String(i.actor), tags: i.tags }),
    (k) => rkOf(k.rk),
  );
}

/**
 * Up to `limit` of the tag `key`'s newest entries made at or after `sinceTicks` (full items,
 * strongly consistent: a stamp that raised the bound first must see every entry a fan-out page
 * wrote before it read that bound).
 */
export function tagEntriesSince(key: TagKey, sinceTicks: bigint, limit: number): Promise<Item[]> {
  return itemsSince(tagFeedPartition(key), sinceTicks, limit, { ConsistentRead: true });
}

// ---- following tags ----------------------------------------------------------------------------

export async function getTagFollow(user: string, key: TagKey): Promise<TagFollow | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: graph(), Key: tagFollowKey(user, key), ConsistentRead: true }));
  return parseTagFollow(Item as Item | undefined);
}

/** `exists`: followed already; `full`: the tag has its push followers (follow it as pull); `conflict`: a lost race. */
export type TagFollowOutcome = 'done' | 'exists' | 'full' | 'conflict';

/** Follow as a push follower while the tag has fewer than `maxPush`: the follow, the follower entry and the count, at once. */
export async function followTagPush(user: string, key: TagKey, written: string, ticks: bigint, maxPush: number): Promise<TagFollowOutcome> {
  const out = await transact([
    ['follow', { Put: { TableName: graph(), Item: tagFollowItem(user, key, written, ticks, 'push'), ConditionExpression: 'attribute_not_exists(pk)' } }],
    ['entry', { Put: { TableName: graph(), Item: { ...tagFollowerKey(key, user), userId: user } } }],
    [
      'count',
      {
        Update: {
          TableName: graph(),
          Key: tagMetaKey(key),
          UpdateExpression: 'ADD followers :one',
          ConditionExpression: 'attribute_not_exists(followers) OR followers < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': maxPush },
        },
      },
    ],
  ]);
  return out.ok ? 'done' : out.failed.has('follow') ? 'exists' : out.failed.has('count') ? 'full' : 'conflict';
}

/** Follow as a pull follower: the follow and the tag in the follower's home-feed head, at once. */
export async function followTagPull(user: string, key: TagKey, written: string, ticks: bigint): Promise<TagFollowOutcome> {
  const out = await transact([
    ['follow', { Put: { TableName: graph(), Item: tagFollowItem(user, key, written, ticks, 'pull'), ConditionExpression: 'attribute_not_exists(pk)' } }],
    ['head', { Update: addPulledTagUpdate(user, key) }],
  ]);
  return out.ok ? 'done' : out.failed.has('follow') ? 'exists' : 'conflict';
}

/** Unfollow as read: `gone` when the follow was no longer there. */
export async function unfollowTagTx(user: string, follow: TagFollow): Promise<'done' | 'gone' | 'conflict'> {
  const key = follow.key;
  const out = await transact([
    [
      'follow',
      {
        Delete: {
          TableName: graph(),
          Key: tagFollowKey(user, key),
          ConditionExpression: 'attribute_exists(pk) AND #m = :m',
          ExpressionAttributeNames: { '#m': 'mode' },
          ExpressionAttributeValues: { ':m': follow.mode },
        },
      },
    ],
    ...(follow.mode === 'push'
      ? ([
          ['entry', { Delete: { TableName: graph(), Key: tagFollowerKey(key, user) } }],
          [
            'count',
            { Update: { TableName: graph(), Key: tagMetaKey(key), UpdateExpression: 'ADD followers :minus', ExpressionAttributeValues: { ':minus': -1 } } },
          ],
        ] as const)
      : ([['head', { Update: removePulledTagUpdate(user, key) }]] as const)),
  ]);
  return out.ok ? 'done' : out.failed.has('follow') ? 'gone' : 'conflict';
}

/** One page of a graph partition by sort key, after `after`; `last` a sort key. */
function graphListPage(partition: string, limit: number, after: string | undefined, projection?: string, consistent = false): Promise<Page<Item, string>> {
  return queryListPage(
    {
      TableName: graph(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ...(projection === undefined ? {} : { ProjectionExpression: projection }),
      ...(consistent ? { ConsistentRead: true } : {}),
      Limit: limit,
      ...(after === undefined ? {} : { ExclusiveStartKey: { pk: partition, sk: after } }),
    },
    sortKeyOf,
  );
}

/**
 * How many of a reader's tag follows the removers and restorers read in one page (a mute's cleanup,
 * an unmute's restore): their earliest push follow bounds the posts they look at.
 */
export const TAG_FOLLOWS_READ = 1000;

/** One page of the tags `user` follows, by tag key; `last` a tag key. */
export async function tagFollowsPage(user: string, limit: number, after?: string): Promise<Page<TagFollow, string>> {
  return mapPage(await graphListPage(tagFollowPartition(user), limit, after), (i) => parseTagFollow(i)!, String);
}

/** A tag's push follower as its entry says: `activeUntil`, their activity bound (model/reader-activity.ts; absent: always copied). */
export interface TagFollower {
  readonly userId: string;
  readonly activeUntil?: bigint;
}

/** One page of a tag's push followers; `last` a user id (the sort key). */
export async function tagFollowersPage(
  key: TagKey,
  limit: number,
  after?: string,
  opts: { readonly consistent?: boolean } = {},
): Promise<Page<TagFollower, string>> {
  return mapPage(
    await graphListPage(tagFollowersPartition(key), limit, after, 'sk, activeUntil', opts.consistent),
    (i) => ({ userId: String(i.sk), ...(i.activeUntil === undefined ? {} : { activeUntil: BigInt(String(i.activeUntil)) }) }),
    String,
  );
}

/**
 * Raise `user`'s activity bound on their entry among the tag `key`'s push followers to `until` —
 * never lower it, never create an entry an unfollow deleted — or, with `until` undefined (`off`),
 * remove it (as follow-store's stampFollowerEntry does for a followers entry).
 */
export function stampTagFollowerEntry(key: TagKey, user: string, until: bigint | undefined): Promise<void> {
  return sendUnlessStale(stampUpdate(tagFollowerKey(key, user), until)); // unfollowed, or a later stamp was here first
}

/** Send a conditional update built by another store for this store's item; a failed condition means nothing to do. */
async function sendUnlessStale(input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<void> {
  try {
    await doc.send(new UpdateCommand(input));
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

// ---- trending ------------------------------------------------------------------------------------

/**
 * Count `author`'s use of `key` in `bucket` once: the marker (only if absent) and the counter's
 * bump commit together, so a retry or redelivery that finds the marker changes nothing.
 * Returns the counter's value after (strongly consistent read), for the top list.
 */
export async function countTrendUse(bucket: string, key: TagKey, written: string, author: string, expiresAt: number): Promise<number> {
  const out = await transact([
    ['marker', { Put: { TableName: stats(), Item: { ...trendMarkerKey(bucket, key, author), expiresAt }, ConditionExpression: 'attribute_not_exists(pk)' } }],
    [
      'counter',
      {
        Update: {
          TableName: stats(),
          Key: trendCounterKey(key, bucket),
          UpdateExpression: 'ADD n :one SET tag = if_not_exists(tag, :tag), expiresAt = :e',
          ExpressionAttributeValues: { ':one': 1, ':tag': written, ':e': expiresAt },
        },
      },
    ],
  ]);
  if (!out.ok && !out.failed.has('marker')) throw new Error(`trend count of ${key} in ${bucket} lost a race; the job retries`);
  const { Item } = await doc.send(new GetCommand({ TableName: stats(), Key: trendCounterKey(key, bucket), ConsistentRead: true }));
  return Item ? Number(String(Item.n)) : 0;
}

export async function getTopList(bucket: string, consistent = false): Promise<{ top: TopList; version: number }> {
  const { Item } = await doc.send(new GetCommand({ TableName: stats(), Key: trendTopKey(bucket), ConsistentRead: consistent }));
  return parseTopList(Item as Item | undefined);
}

/** Replace the top list if it is still at `version`; false when another writer got there first. */
export async function putTopList(bucket: string, top: TopList, version: number, expiresAt: number): Promise<boolean> {
  try {
    await doc.send(
      new PutCommand({
        TableName: stats(),
        Item: { ...trendTopKey(bucket), top, v: version + 1, expiresAt },
        ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'v = :v',
        ...(version === 0 ? {} : { ExpressionAttributeValues: { ':v': version } }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}
