/**
 * Activities and feeds: authors' timelines (`t#`), home feeds (`f#`) and their head items in the
 * feed table, and each original's foreignId marker in the graph table (written in one transaction
 * with it). The one store that writes these items — other stores' transactions take a head's
 * update from here (addPulledUpdate) — and every key comes from model/.
 *
 * Access patterns:
 *   timeline page / home-feed page   one Query on one partition, by rk range (pageInput)
 *   newest originals of an author    Query t#author, newest first (backfill, unpull)
 *   copies in and out                BatchWriteItem puts/deletes by (f#owner, rk)
 *   keys of a home-feed range        Query f#owner, projection rk (trims)
 *   head item                        GetItem / UpdateItem at (f#owner, 0)
 *   an edit                          UpdateItem of the original, conditioned on its version; of
 *                                    each copy, conditioned on the copy existing at an older one
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, type QueryCommandInput, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { foreignIdItem, foreignIdKey, markedRk } from '../model/foreign-id.js';
import { erasureKey } from '../model/erasure.js';
import { parseProfile, profileKey } from '../model/profile.js';
import { EDITABLE_FIELDS, type EditedState } from '../model/editable-fields.js';
import type { TagKey } from '../model/tags.js';
import { copyOf, type CopySource, homeFeedKey, homeFeedPartition, WRITTEN_ATTRIBUTE } from '../model/feed-copy.js';
import { type FeedHead, feedHeadKey, HEAD_RK, parseFeedHead } from '../model/feed-head.js';
import { newerThanBound, rkOf } from '../model/range-key.js';
import { TOMBSTONE_SECONDS, type TimelineItem, timelineKey, timelinePartition, versionOf } from '../model/timeline-item.js';
import { doc } from '../platform/clients.js';
import { batchGetAcross } from '../platform/dynamo/batch-get.js';
import { type BatchWriteOptions, batchWriteAll } from '../platform/dynamo/batch-write.js';
import { isConditionalCheckFailed } from '../platform/dynamo/dynamo-errors.js';
import { type Item, mapPage, type Page, queryAll, queryPage } from '../platform/dynamo/query.js';
import { deletePartitionPage } from '../platform/dynamo/partition.js';
import { transact } from '../platform/dynamo/transact.js';
import { tableName } from '../platform/env.js';
import { AGAIN, RETRY, retrying } from '../platform/retry.js';

const feed = () => tableName('feed');

// ---- timelines -------------------------------------------------------------------------------

/** Write a new original (conditional: an rk is never reused). */
export async function putOriginal(item: TimelineItem): Promise<void> {
  await doc.send(new PutCommand({ TableName: feed(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
}

/**
 * Write a new original and its foreignId marker atomically. Returns 'exists' when the marker is
 * already there (or a concurrent post holds it): nothing was written.
 */
export async function putOriginalWithMarker(item: TimelineItem & { foreignId: string }): Promise<'created' | 'exists'> {
  const out = await transact([
    ['original', { Put: { TableName: feed(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }],
    [
      'marker',
      {
        Put: {
          TableName: tableName('graph'),
          Item: foreignIdItem(item.actor, item.foreignId, item.rk, item.id),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
  ]);
  return out.ok ? 'created' : 'exists';
}

/** The rk a foreignId marker names, if the marker exists. */
export async function markedOriginal(actor: string, foreignId: string): Promise<bigint | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: tableName('graph'), Key: foreignIdKey(actor, foreignId), ConsistentRead: true }));
  return Item ? markedRk(Item) : undefined;
}

/** Free a foreignId, if its marker still names the original at `rk`. */
export async function releaseForeignId(actor: string, foreignId: string, rk: bigint): Promise<void> {
  try {
    await doc.send(
      new DeleteCommand({
        TableName: tableName('graph'),
        Key: foreignIdKey(actor, foreignId),
        ConditionExpression: 'rk = :rk',
        ExpressionAttributeValues: { ':rk': rk },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** Delete up to `limit` of `actor`'s foreignId markers (an erase). Returns how many. */
export const deleteForeignIdMarkers = (actor: string, limit: number): Promise<number> =>
  deletePartitionPage({ table: tableName('graph'), pk: foreignIdKey(actor, '').pk, sortKey: 'sk' }, limit);

/** The stored original at (author, rk), tombstones included; strongly consistent. */
export async function getOriginal(author: string, rk: bigint): Promise<Item | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: feed(), Key: timelineKey(author, rk), ConsistentRead: true }));
  return Item as Item | undefined;
}

/**
 * Mark the original deleted (a hidden tombstone that TTL removes after TOMBSTONE_SECONDS).
 * Returns the marked item, or undefined if there was no visible original of `actor` there.
 */
export async function markOriginalDeleted(actor: string, rk: bigint, nowSeconds: number): Promise<Item | undefined> {
  try {
    const { Attributes } = await doc.send(
      new UpdateCommand({
        TableName: feed(),
        Key: timelineKey(actor, rk),
        UpdateExpression: 'SET deletedAt = :deletedAt, expiresAt = :gone',
        ConditionExpression:
          'attribute_exists(pk) AND actor = :actor AND attribute_not_exists(deletedAt) ' + 'AND (attribute_not_exists(expiresAt) OR expiresAt > :now)',
        ExpressionAttributeValues: {
          ':deletedAt': new Date(nowSeconds * 1000).toISOString(),
          ':gone': nowSeconds + TOMBSTONE_SECONDS,
          ':actor': actor,
          ':now': nowSeconds,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as Item;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

/**
 * Up to `limit` newest originals of `author` (full items), tombstones included when asked —
 * a cleanup must find posts deleted meanwhile; a copy writer must not copy them.
 */
export async function newestOriginals(author: string, limit: number, opts: { tombstones: boolean }): Promise<Item[]> {
  if (limit <= 0) return [];
  return queryAll(
    {
      TableName: feed(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': timelinePartition(author) },
      ...(opts.tombstones ? {} : { FilterExpression: 'attribute_not_exists(deletedAt)' }),
      Limit: limit,
    },
    limit,
  );
}

/**
 * Up to `limit` of `author`'s newest live originals posted at or after `sinceTicks` (full items):
 * what a returning reader's feed may lack (services/reader-activity/).
 */
export function originalsSince(author: string, sinceTicks: bigint, limit: number): Promise<Item[]> {
  return itemsSince(timelinePartition(author), sinceTicks, limit, { FilterExpression: 'attribute_not_exists(deletedAt)' });
}

/** Up to `limit` of a feed-table partition's newest items made at or after `sinceTicks` (full items), the Query's `extra` options added. */
export async function itemsSince(
  partition: string,
  sinceTicks: bigint,
  limit: number,
  extra: Pick<QueryCommandInput, 'FilterExpression' | 'ConsistentRead'> = {},
): Promise<Item[]> {
  if (limit <= 0) return [];
  return queryAll(
    {
      TableName: feed(),
      KeyConditionExpression: 'pk = :pk AND rk < :newer',
      ExpressionAttributeValues: { ':pk': partition, ':newer': newerThanBound(sinceTicks) },
      ...extra,
      Limit: limit,
    },
    limit,
  );
}

/**
 * Whether `author` has any original, tombstones included (one strongly consistent Query, Limit 1,
 * keys only: ≤ 1 RCU). A follow asks it to skip the backfill of a user who never posted.
 */
export async function hasOriginals(author: string): Promise<boolean> {
  const page = await queryPage({
    TableName: feed(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': timelinePartition(author) },
    ProjectionExpression: 'rk',
    ConsistentRead: true,
    Limit: 1,
  });
  return page.items.length > 0;
}

/** `author`'s originals (tombstones included) as a cleanup asks of them: rk, tags and whether deleted, newest first, while `keep` says so. */
export async function originalKeysWhile(
  author: string,
  keep: (rk: bigint, deleted: boolean) => boolean,
): Promise<{ rk: bigint; tags: unknown; deleted: boolean }[]> {
  const out: { rk: bigint; tags: unknown; deleted: boolean }[] = [];
  let start: Item | undefined;
  do {
    const page = await queryPage({
      TableName: feed(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': timelinePartition(author) },
      ExpressionAttributeNames: { '#tags': 'tags' },
      ProjectionExpression: 'rk, deletedAt, #tags',
      Limit: 200,
      ExclusiveStartKey: start,
    });
    for (const item of page.items) {
      const rk = rkOf(item.rk);
      const deleted = item.deletedAt !== undefined;
      if (!keep(rk, deleted)) return out;
      out.push({ rk, tags: item.tags, deleted });
    }
    start = page.last;
  } while (start);
  return out;
}

// ---- edits -------------------------------------------------------------------------------------

/** What an edit sets: the editable fields (absent = removed), the new version and when. */
/**
 * SET the present editable fields, version and editedAt (and, for a copy, when it was written: the
 * realtime catch-up's `seq`); REMOVE the absent editable fields (editUpdate: copies and tag-feed entries).
 */
export function editExpression(state: EditedState, written?: bigint) {
  const names: Record<string, string> = { '#version': 'version', '#editedAt': 'editedAt' };
  const values: Record<string, unknown> = { ':version': state.version, ':editedAt': state.editedAt };
  const set = ['#version = :version', '#editedAt = :editedAt'];
  if (written !== undefined) {
    names['#w'] = WRITTEN_ATTRIBUTE;
    values[':w'] = written;
    set.push('#w = :w');
  }
  const remove: string[] = [];
  for (const field of EDITABLE_FIELDS) {
    names[`#${field}`] = field;
    if (state[field] === undefined) remove.push(`#${field}`);
    else {
      set.push(`#${field} = :${field}`);
      values[`:${field}`] = state[field];
    }
  }
  const expression = `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`;
  return { UpdateExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/** The history's side of an edit: the entry that keeps the replaced version, and the key of the one it drops. */
export interface HistoryChange {
  readonly entry: Record<string, unknown>;
  readonly drop?: Record<string, unknown>;
}

/** `original` as an edit to `state` leaves it (what editExpression's update makes of it). */
export function editedItem(original: Item, state: EditedState): Item {
  const item: Item = { ...original, version: state.version, editedAt: state.editedAt };
  for (const field of EDITABLE_FIELDS) {
    if (state[field] === undefined) delete item[field];
    else item[field] = state[field];
  }
  return item;
}

/**
 * Apply an edit to `author`'s original at `rk` if it is still visible and still at the version of
 * `original` (as read; absent = 1), and keep the version it replaces in the history, in one
 * TransactWriteItems: the history then holds exactly the versions the original really had. Written
 * first and apart, an entry stayed behind whenever the update then failed (a stale version, a
 * DELETE, a crash) — a version that never became an earlier one, which the activity's erase also
 * skips when the activity is still at version 1. The price: a transaction writes each item at
 * twice the units (the original and the entry: 4 units where two plain writes cost 2; the drop,
 * past HISTORY_KEEP, 2 more). Returns the item as now stored, or undefined when the original was
 * not at that version any more (edited, deleted or expired) or the transaction lost a race.
 */
export async function editOriginal(
  author: string,
  rk: bigint,
  original: Item,
  state: EditedState,
  history: HistoryChange,
  nowSeconds: number,
): Promise<Item | undefined> {
  const e = editExpression(state);
  const expected = versionOf(original);
  const out = await transact([
    [
      'original',
      {
        Update: {
          TableName: feed(),
          Key: timelineKey(author, rk),
          ...e,
          ConditionExpression:
            'attribute_exists(pk) AND attribute_not_exists(deletedAt) AND (attribute_not_exists(expiresAt) OR expiresAt > :now) AND ' +
            (expected === 1 ? '(attribute_not_exists(#version) OR #version = :expected)' : '#version = :expected'),
          ExpressionAttributeValues: { ...e.ExpressionAttributeValues, ':now': nowSeconds, ':expected': expected },
        },
      },
    ],
    // No condition: only the one edit that moves the original off version n writes entry n.
    ['entry', { Put: { TableName: feed(), Item: history.entry } }],
    history.drop && ['drop', { Delete: { TableName: feed(), Key: history.drop } }],
  ]);
  // A transaction returns no item; the condition held the original at the version read, and an edit
  // is the only write that changes an original's fields while it is visible.
  return out.ok ? editedItem(original, state) : undefined;
}

/**
 * The update that brings the feed-table item at `key` (a copy, or tag-store's tag-feed entry) to an
 * edit's `state` if it exists at an older version: never creates one a delete, retract or trim
 * removed, never lowers one. One write unit either way. Each owner sends it for its own items
 * (test/unit/item-writers.test.ts); a failed condition means nothing to do.
 */
export const editUpdate = (key: Item, state: EditedState, written?: bigint): UpdateCommandInput => ({
  TableName: feed(),
  Key: key,
  ...editExpression(state, written),
  ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#version) OR #version < :version)',
});

/** Bring `owner`'s copy at `rk` to `state` if the copy exists at an older version (editUpdate). Returns whether it changed. */
export async function updateCopy(owner: string, rk: bigint, state: EditedState, written: bigint): Promise<boolean> {
  try {
    await doc.send(new UpdateCommand(editUpdate(homeFeedKey(owner, rk), state, written)));
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

// ---- pages -------------------------------------------------------------------------------------

/** A key range of one partition, newest first (ascending rk) or, for `since`, oldest first. */
export interface KeyRange {
  /** Exclusive lower bound on rk (items older than a `before` cursor). */
  readonly after?: bigint;
  /** Exclusive upper bound on rk (a `since` cursor, a retention bound). */
  readonly below?: bigint;
  /** Descending rk: the items just newer than `below` first (for `since`). */
  readonly descending?: boolean;
  readonly limit: number;
}

/** Which items a page shows: timeline tombstones hidden, and only some verbs (`?verbs=`). */
export interface PageFilter {
  readonly hideTombstones: boolean;
  readonly verbs?: readonly string[];
}

/** The one Query for a range of a partition, or undefined when the range is empty. */
export function pageInput(partition: string, range: KeyRange, filter: PageFilter): QueryCommandInput | undefined {
  const values: Record<string, unknown> = { ':pk': partition };
  let condition = 'pk = :pk';
  const { after: lo, below: hi } = range;
  if (lo !== undefined && hi !== undefined) {
    // rk is an integer: lo < rk < hi  ⇔  rk BETWEEN lo+1 AND hi-1 (BETWEEN rejects lo > hi).
    if (lo + 1n > hi - 1n) return undefined;
    condition += ' AND rk BETWEEN :lo AND :hi';
    values[':lo'] = lo + 1n;
    values[':hi'] = hi - 1n;
  } else if (lo !== undefined) {
    condition += ' AND rk > :lo';
    values[':lo'] = lo;
  } else if (hi !== undefined) {
    if (hi <= 0n) return undefined;
    condition += ' AND rk < :hi';
    values[':hi'] = hi;
  }
  const filters: string[] = [];
  if (filter.hideTombstones) filters.push('attribute_not_exists(deletedAt)');
  if (filter.verbs?.length) {
    // The home feed's head (rk 0, no verb) must still come back: it carries the pulled set.
    filter.verbs.forEach((v, i) => (values[`:v${i}`] = v));
    filters.push(`(attribute_not_exists(#verb) OR #verb IN (${filter.verbs.map((_, i) => `:v${i}`).join(', ')}))`);
  }
  return {
    TableName: feed(),
    KeyConditionExpression: condition,
    ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    ...(filter.verbs?.length ? { ExpressionAttributeNames: { '#verb': 'verb' } } : {}),
    ExpressionAttributeValues: values,
    ScanIndexForward: !range.descending,
    Limit: range.limit,
  };
}

export const timelinePageInput = (author: string, range: KeyRange, verbs?: readonly string[]) =>
  pageInput(timelinePartition(author), range, { hideTombstones: true, verbs });

/** Home-feed pages hold copies only (deleted posts' copies are deleted, not marked). */
export const homeFeedPageInput = (owner: string, range: KeyRange, verbs?: readonly string[]) =>
  pageInput(homeFeedPartition(owner), range, { hideTombstones: false, verbs });

/**
 * The realtime catch-up: of one range of `owner`'s home feed, the copies written after
 * `afterTicks`. One Query: it pays for every item of the range it reads (up to `range.limit`) and
 * returns the matches; LastEvaluatedKey says where to go on.
 */
export async function copiesWrittenAfter(owner: string, afterTicks: bigint, range: KeyRange): Promise<FeedPage> {
  const input = homeFeedPageInput(owner, range);
  if (!input) return { items: [] };
  const page = await queryPage({
    ...input,
    FilterExpression: '#w > :w',
    ExpressionAttributeNames: { '#w': WRITTEN_ATTRIBUTE },
    ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':w': afterTicks },
  });
  return feedPageOf(page);
}

/** A page of a feed partition: `last` is the range key the Query stopped at (feeds page by it: `lastRangeKey`). */
export type FeedPage = Page<Item, bigint>;
const feedPageOf = (page: Page<Item, Item>): FeedPage =>
  mapPage(
    page,
    (i) => i,
    (key) => rkOf(key.rk),
  );

/** How far a verb-filtered page reads to fill itself: Queries, and items per Query per wanted item. */
export const FILTERED_PAGE = { maxQueries: 4, readFactor: 4, maxLimit: 1000 } as const;

/**
 * Run a page's Query. Unfiltered: one call. Filtered (`verbs`): DynamoDB applies Limit before the
 * filter, so each call reads `readFactor` × the wanted items and the page continues from the last
 * evaluated key until it has enough matches or made `maxQueries` calls — it pays for every item
 * read, matching or not, and may end short with a cursor where it stopped.
 */
export async function runPage(input: QueryCommandInput | undefined): Promise<FeedPage> {
  if (!input) return { items: [] };
  if (!input.ExpressionAttributeValues?.[':v0']) return feedPageOf(await queryPage(input));
  const wanted = input.Limit ?? 1;
  const items: Item[] = [];
  let start: Item | undefined;
  for (let call = 0; call < FILTERED_PAGE.maxQueries; call++) {
    const page = await queryPage({ ...input, Limit: Math.min(wanted * FILTERED_PAGE.readFactor, FILTERED_PAGE.maxLimit), ExclusiveStartKey: start });
    items.push(...page.items);
    start = page.last;
    if (!start || items.length >= wanted) break;
  }
  if (items.length > wanted) return { items: items.slice(0, wanted), last: rkOf(items[wanted - 1]!.rk) };
  return feedPageOf({ items, last: start });
}

/** A page of an author's originals, tombstones included, newest first (strongly consistent). */
export async function originalsPage(author: string, limit: number, after?: bigint): Promise<Item[]> {
  const page = await queryPage({
    TableName: feed(),
    KeyConditionExpression: after === undefined ? 'pk = :pk' : 'pk = :pk AND rk > :after',
    ExpressionAttributeValues: { ':pk': timelinePartition(author), ...(after === undefined ? {} : { ':after': after }) },
    ConsistentRead: true,
    Limit: limit,
  });
  return page.items;
}

/** Delete an original outright (an erase: no tombstone stays behind). */
export async function deleteOriginal(author: string, rk: bigint): Promise<void> {
  await doc.send(new DeleteCommand({ TableName: feed(), Key: timelineKey(author, rk) }));
}

/** Delete up to `limit` items of a home feed, its head included (an erase). Returns how many. */
export const deleteHomeFeedPage = (owner: string, limit: number): Promise<number> =>
  deletePartitionPage({ table: feed(), pk: homeFeedPartition(owner), sortKey: 'rk' }, limit);

// ---- home-feed copies --------------------------------------------------------------------------

/** Copies of one original for some owners, with the home-feed TTL they get. */
export interface CopyGroup {
  readonly source: CopySource;
  readonly owners: readonly string[];
  readonly expiresAt: number | undefined;
  /** Server ticks of the write (model/feed-copy.ts WRITTEN_ATTRIBUTE). */
  readonly written?: bigint;
}

/**
 * Put copies into home feeds, all in one batched write. Each original is marshalled once and only
 * the partition changes per owner: a fan-out pays per copy for its write, not for its encoding.
 */
export async function putCopies(groups: readonly CopyGroup[], opts?: BatchWriteOptions): Promise<void> {
  const requests = groups.flatMap((g) => {
    if (g.owners.length === 0) return [];
    const template = marshall(copyOf(g.source, g.owners[0]!, g.expiresAt, g.written), { removeUndefinedValues: true });
    return g.owners.map((owner) => ({ PutRequest: { Item: { ...template, pk: { S: homeFeedPartition(owner) } } } }));
  });
  await batchWriteAll(feed(), requests, { ...opts, marshalled: true });
}

/** Delete the copies at (owner, rk). Deleting an absent key is harmless (and still 1 WCU). */
export async function deleteCopies(keys: readonly { owner: string; rk: bigint }[], opts?: BatchWriteOptions): Promise<void> {
  await batchWriteAll(
    feed(),
    keys.map((k) => ({ DeleteRequest: { Key: homeFeedKey(k.owner, k.rk) } })),
    opts,
  );
}

/** rks of a home-feed range, ascending (newest first), the head excluded; reads only keys' items. */
export async function copyKeys(owner: string, range: { after?: bigint; below?: bigint; limit: number }): Promise<bigint[]> {
  const input = pageInput(homeFeedPartition(owner), { ...range, after: range.after ?? HEAD_RK }, { hideTombstones: false });
  if (!input) return [];
  const items = await queryAll({ ...input, ProjectionExpression: 'rk', Limit: Math.min(range.limit, 1000) }, range.limit);
  return items.map((i) => rkOf(i.rk));
}

// ---- home-feed heads ---------------------------------------------------------------------------

/** The head of a home feed (eventually consistent: trims and cursor pages can live with a stale one). */
export async function readHead(owner: string): Promise<FeedHead> {
  const { Item } = await doc.send(new GetCommand({ TableName: feed(), Key: feedHeadKey(owner) }));
  return parseFeedHead(Item as Item | undefined);
}

/** Record the newest copy a trim saw, unless a later trim recorded a newer one. */
export async function recordTrimTop(owner: string, top: bigint): Promise<void> {
  await doc
    .send(
      new UpdateCommand({
        TableName: feed(),
        Key: feedHeadKey(owner),
        UpdateExpression: 'SET #top = :t',
        ConditionExpression: 'attribute_not_exists(#top) OR #top > :t',
        ExpressionAttributeNames: { '#top': 'top' },
        ExpressionAttributeValues: { ':t': top },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionalCheckFailed(error)) throw error;
    });
}

/**
 * Move `owner`'s activity bound (model/reader-activity.ts) up to `until`, never down — a stamp
 * finishing late must not claim less than a later one stamped — or remove it (`off`). Never for a
 * user being erased: the write would recreate a head the erase deleted (checked in the same
 * transaction as the write, on the erase mark).
 */
export async function setHeadActiveUntil(owner: string, until: bigint | undefined): Promise<void> {
  const head =
    until === undefined
      ? { TableName: feed(), Key: feedHeadKey(owner), UpdateExpression: 'REMOVE activeUntil' }
      : {
          TableName: feed(),
          Key: feedHeadKey(owner),
          UpdateExpression: 'SET activeUntil = :u',
          ConditionExpression: 'attribute_not_exists(activeUntil) OR activeUntil < :u',
          ExpressionAttributeValues: { ':u': until },
        };
  const notErased = { TableName: tableName('graph'), Key: erasureKey(owner), ConditionExpression: 'attribute_not_exists(pk)' };
  await retrying(`raise ${owner}'s activity bound`, RETRY.request, async () => {
    const out = await transact<'head' | 'erasure'>([
      ['head', { Update: head }],
      ['erasure', { ConditionCheck: notErased }],
    ]);
    return out.ok || out.failed.size > 0 ? undefined : AGAIN; // done, raised higher already, or erased
  });
}

/** Remove `author` from `owner`'s pulled set (no-op if absent). */
export async function removePulled(owner: string, author: string): Promise<void> {
  await doc.send(new UpdateCommand(removePulledUpdate(owner, author)));
}

/** The update that adds `author` to `owner`'s pulled set (for transactions in follow-store). */
export const addPulledUpdate = (owner: string, author: string) => ({
  TableName: feed(),
  Key: feedHeadKey(owner),
  UpdateExpression: 'ADD pulled :a',
  ExpressionAttributeValues: { ':a': new Set([author]) },
});

/** The update that adds the tag `key` to `owner`'s pulled tags (a pull follow of a tag: services/tags/). */
export const addPulledTagUpdate = (owner: string, key: TagKey) => ({
  TableName: feed(),
  Key: feedHeadKey(owner),
  UpdateExpression: 'ADD tags :t',
  ExpressionAttributeValues: { ':t': new Set([key]) },
});

/** The update that removes the tag `key` from `owner`'s pulled tags. */
export const removePulledTagUpdate = (owner: string, key: TagKey) => ({
  TableName: feed(),
  Key: feedHeadKey(owner),
  UpdateExpression: 'DELETE tags :t',
  ExpressionAttributeValues: { ':t': new Set([key]) },
});

/** The update that removes `author` from `owner`'s pulled set. */
export const removePulledUpdate = (owner: string, author: string) => ({
  TableName: feed(),
  Key: feedHeadKey(owner),
  UpdateExpression: 'DELETE pulled :a',
  ExpressionAttributeValues: { ':a': new Set([author]) },
});

/**
 * The stored originals at these (author, rk), tombstones included, for those asked (`ownCopy`)
 * whether the author's own copy exists, and for those asked (`pulled`) whether the author is
 * pulled (their profile, in the graph table), in the order asked: one strongly consistent BatchGet
 * per 100 keys (a fan-out batch's checks of all its pages, before and after its writes).
 */
export async function getOriginalsAndOwnCopies(
  keys: readonly { author: string; rk: bigint; ownCopy: boolean; pulled?: boolean }[],
): Promise<{ original: Item | undefined; ownCopy: boolean; pulled: boolean }[]> {
  const graph = tableName('graph');
  const found = await batchGetAcross(
    {
      [feed()]: [...keys.map((k) => timelineKey(k.author, k.rk)), ...keys.filter((k) => k.ownCopy).map((k) => homeFeedKey(k.author, k.rk))],
      [graph]: keys.filter((k) => k.pulled).map((k) => profileKey(k.author)),
    },
    { consistent: true },
  );
  const id = (k: { pk?: unknown; rk?: unknown }) => `${String(k.pk)}\n${String(k.rk)}`; // rk read back is a NumberValue
  const byKey = new Map((found[feed()] ?? []).map((i) => [id(i), i]));
  const at = (k: { pk?: unknown; rk?: unknown }) => byKey.get(id(k));
  const profiles = new Map((found[graph] ?? []).map((i) => [String(i.pk), i]));
  return keys.map((k) => ({
    original: at(timelineKey(k.author, k.rk)),
    ownCopy: k.ownCopy && at(homeFeedKey(k.author, k.rk)) !== undefined,
    pulled: k.pulled === true && parseProfile(profiles.get(profileKey(k.author).pk)).pulled,
  }));
}

/**
 * The originals at these (author, rk), in the order asked (undefined: none), eventually consistent:
 * a ranked page's hydration (services/ranking/read-ranked.ts), which shows the current version and leaves
 * out deleted ones. One BatchGet call for up to 100 keys.
 */
export async function getOriginals(keys: readonly { author: string; rk: bigint }[]): Promise<(Item | undefined)[]> {
  if (keys.length === 0) return [];
  const found = (await batchGetAcross({ [feed()]: keys.map((k) => timelineKey(k.author, k.rk)) }))[feed()] ?? [];
  const id = (k: { pk?: unknown; rk?: unknown }) => `${String(k.pk)}\n${String(k.rk)}`;
  const byKey = new Map(found.map((i) => [id(i), i]));
  return keys.map((k) => byKey.get(id(timelineKey(k.author, k.rk))));
}
