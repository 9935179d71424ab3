/**
 * Ranked feeds' items in the graph table (model/ranked-feed.ts): definitions and their list
 * entries, ranking snapshots, and each reader's seen marks and author weights.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type BreakerState, skeletonCacheKey } from '../model/feed-generator.js';
import { definitionKey, definitionListKey, definitionListPartition, readerMarksKey, SHARED_OWNER, snapshotKey } from '../model/ranked-feed.js';
import { doc } from '../platform/clients.js';
import { isConditionalCheckFailed } from '../platform/dynamo/dynamo-errors.js';
import { type Item, mapPage, type Page, queryListPage, sortKeyOf } from '../platform/dynamo/query.js';
import { transact } from '../platform/dynamo/transact.js';
import { tableName } from '../platform/env.js';

const graph = () => tableName('graph');

export interface StoredDefinition {
  readonly feedId: string;
  readonly owner: string;
  readonly shared: boolean;
  /** The definition as the PUT validated it (JSON). */
  readonly body: string;
  readonly updatedAt: string;
  /** A generator feed's signing secret (never shown but in the PUT's answer). */
  readonly generatorSecret?: string;
  /** A generator feed's breaker (a PUT closes it; a definition stored without one reads closed). */
  readonly breaker: BreakerState;
}

/** A definition as a PUT writes it: the item is replaced whole, so its breaker starts closed. */
export type NewDefinition = Omit<StoredDefinition, 'breaker'>;

const listOwner = (d: Pick<StoredDefinition, 'owner' | 'shared'>) => (d.shared ? SHARED_OWNER : d.owner);

function parseDefinition(feedId: string, item: Item | undefined): StoredDefinition | undefined {
  if (item === undefined || typeof item.body !== 'string' || typeof item.owner !== 'string') return undefined;
  return {
    feedId,
    owner: item.owner,
    shared: item.shared === true,
    body: item.body,
    updatedAt: String(item.updatedAt),
    ...(typeof item.generatorSecret === 'string' && { generatorSecret: item.generatorSecret }),
    breaker: { failures: Number(String(item.failures ?? 0)), openUntil: Number(String(item.openUntil ?? 0)) },
  };
}

export async function getDefinition(feedId: string): Promise<StoredDefinition | undefined> {
  const out = await doc.send(new GetCommand({ TableName: graph(), Key: definitionKey(feedId) }));
  return parseDefinition(feedId, out.Item as Item | undefined);
}

/**
 * Write a definition and its list entry in one transaction. Whose it may replace is conditioned on
 * the stored item: a user's feed only by that user (and never a shared one), a shared feed only by
 * a shared write (an admin). `taken`: someone else's — nothing written.
 */
export async function putDefinition(d: NewDefinition): Promise<'done' | 'taken' | 'conflict'> {
  const out = await transact<'def' | 'list'>([
    [
      'def',
      {
        Put: {
          TableName: graph(),
          Item: {
            ...definitionKey(d.feedId),
            owner: d.owner,
            shared: d.shared,
            body: d.body,
            updatedAt: d.updatedAt,
            ...(d.generatorSecret !== undefined && { generatorSecret: d.generatorSecret }),
          },
          ConditionExpression: d.shared ? 'attribute_not_exists(pk) OR #s = :t' : 'attribute_not_exists(pk) OR (#o = :o AND #s = :f)',
          ExpressionAttributeValues: d.shared ? { ':t': true } : { ':o': d.owner, ':f': false },
          ExpressionAttributeNames: d.shared ? { '#s': 'shared' } : { '#o': 'owner', '#s': 'shared' },
        },
      },
    ],
    ['list', { Put: { TableName: graph(), Item: { ...definitionListKey(listOwner(d), d.feedId), feedId: d.feedId } } }],
  ]);
  if (out.ok) return 'done';
  return out.failed.has('def') ? 'taken' : 'conflict';
}

/** Delete a definition (as read: conditioned on its owner still being the one read) and its list entry. */
export async function deleteDefinition(d: StoredDefinition): Promise<'done' | 'changed'> {
  const out = await transact<'def' | 'list'>([
    [
      'def',
      {
        Delete: {
          TableName: graph(),
          Key: definitionKey(d.feedId),
          ConditionExpression: '#o = :o AND #s = :s',
          ExpressionAttributeNames: { '#o': 'owner', '#s': 'shared' },
          ExpressionAttributeValues: { ':o': d.owner, ':s': d.shared },
        },
      },
    ],
    ['list', { Delete: { TableName: graph(), Key: definitionListKey(listOwner(d), d.feedId) } }],
  ]);
  return out.ok ? 'done' : 'changed';
}

/** An update of a generator feed's breaker, if the definition is still the one read (a PUT since reset it; a DELETE since must not bring back a bare item). */
async function updateBreaker(feedId: string, updatedAt: string, update: string, values: Record<string, number>, condition = ''): Promise<Item | undefined> {
  try {
    const out = await doc.send(
      new UpdateCommand({
        TableName: graph(),
        Key: definitionKey(feedId),
        UpdateExpression: update,
        ConditionExpression: `updatedAt = :u${condition}`,
        ExpressionAttributeValues: { ...values, ':u': updatedAt },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return (out.Attributes ?? {}) as Item;
  } catch (e) {
    if (isConditionalCheckFailed(e)) return undefined;
    throw e;
  }
}

/** One more failure in a row (an atomic count, so concurrent failures all count): the count, or undefined if the definition changed. */
export async function addGeneratorFailure(feedId: string, updatedAt: string): Promise<number | undefined> {
  const out = await updateBreaker(feedId, updatedAt, 'ADD failures :one', { ':one': 1 });
  return out === undefined ? undefined : Number(String(out.failures));
}

/** Open the breaker until `until` (epoch ms). */
export async function openBreaker(feedId: string, updatedAt: string, until: number): Promise<void> {
  await updateBreaker(feedId, updatedAt, 'SET openUntil = :until, failures = :zero', { ':until': until, ':zero': 0 });
}

/**
 * Move `openUntil` from `from` to `to` if no one else did: the one call that claims a trial (true),
 * or a success closing the breaker it read (`to` 0, failures reset) — a late success does not close
 * a breaker opened since.
 */
export async function moveBreaker(feedId: string, updatedAt: string, from: number, to: number): Promise<boolean> {
  const closes = to === 0 ? ', failures = :zero' : '';
  const out = await updateBreaker(
    feedId,
    updatedAt,
    `SET openUntil = :to${closes}`,
    { ':to': to, ':from': from, ...(to === 0 && { ':zero': 0 }) },
    from === 0 ? ' AND (attribute_not_exists(openUntil) OR openUntil = :from)' : ' AND openUntil = :from',
  );
  return out !== undefined;
}

/** A cached generator answer (its JSON), if not past `expiresAt` (epoch seconds). */
export async function getCachedSkeleton(feedId: string, digest: string, nowSeconds: number): Promise<string | undefined> {
  const out = await doc.send(new GetCommand({ TableName: graph(), Key: skeletonCacheKey(feedId, digest) }));
  const i = out.Item as Item | undefined;
  return i !== undefined && typeof i.body === 'string' && Number(String(i.expiresAt)) > nowSeconds ? i.body : undefined;
}

export async function putCachedSkeleton(feedId: string, digest: string, body: string, expiresAt: number): Promise<void> {
  await doc.send(new PutCommand({ TableName: graph(), Item: { ...skeletonCacheKey(feedId, digest), body, expiresAt } }));
}

/** One page of the feed ids listed under `owner` (SHARED_OWNER for the shared ones), after `after`. */
export async function definitionPage(owner: string, limit: number, after?: string): Promise<Page<string, string>> {
  const pk = definitionListPartition(owner);
  const page = await queryListPage(
    {
      TableName: graph(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      Limit: limit,
      ...(after !== undefined ? { ExclusiveStartKey: { pk, sk: after } } : {}),
    },
    sortKeyOf,
  );
  return mapPage(
    page,
    (i) => String(i.sk),
    (k) => k,
  );
}

export interface Snapshot {
  readonly reader: string;
  readonly feedId: string;
  /** Activity ids, in ranked order. */
  readonly ids: readonly string[];
  readonly scores: readonly number[];
  /** Per id, the variables behind its score (only when the first page asked `explain`). */
  readonly explain?: readonly Record<string, number>[];
  /** Epoch seconds. */
  readonly expiresAt: number;
}

export async function putSnapshot(snapshotId: string, s: Snapshot): Promise<void> {
  await doc.send(new PutCommand({ TableName: graph(), Item: { ...snapshotKey(snapshotId), ...s, ids: [...s.ids], scores: [...s.scores] } }));
}

export async function getSnapshot(snapshotId: string): Promise<Snapshot | undefined> {
  const out = await doc.send(new GetCommand({ TableName: graph(), Key: snapshotKey(snapshotId) }));
  const i = out.Item as Item | undefined;
  if (i === undefined || !Array.isArray(i.ids) || !Array.isArray(i.scores)) return undefined;
  return {
    reader: String(i.reader),
    feedId: String(i.feedId),
    ids: (i.ids as unknown[]).map(String),
    scores: (i.scores as unknown[]).map((v) => Number(String(v))),
    ...(Array.isArray(i.explain)
      ? { explain: (i.explain as Record<string, unknown>[]).map((e) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, Number(String(v))]))) }
      : {}),
    expiresAt: Number(String(i.expiresAt)),
  };
}

export interface ReaderMarks {
  /** Seen activity ids, oldest first. */
  readonly seen: readonly string[];
  /** Author → weight (less < 1 < more). */
  readonly weights: Readonly<Record<string, number>>;
  /** The version read (0: no item yet). */
  readonly v: number;
}

export async function getReaderMarks(reader: string): Promise<ReaderMarks> {
  const out = await doc.send(new GetCommand({ TableName: graph(), Key: readerMarksKey(reader) }));
  const i = out.Item as Item | undefined;
  if (i === undefined) return { seen: [], weights: {}, v: 0 };
  const weights = (i.weights ?? {}) as Record<string, unknown>;
  return {
    seen: Array.isArray(i.seen) ? (i.seen as unknown[]).map(String) : [],
    weights: Object.fromEntries(Object.entries(weights).map(([k, v]) => [k, Number(String(v))])),
    v: Number(String(i.v ?? 0)),
  };
}

/** Replace the reader's marks if still at the version read: `changed` when another write came first. */
export async function putReaderMarks(reader: string, marks: ReaderMarks): Promise<'done' | 'changed'> {
  try {
    await doc.send(
      new PutCommand({
        TableName: graph(),
        Item: { ...readerMarksKey(reader), seen: [...marks.seen], weights: { ...marks.weights }, v: marks.v + 1 },
        ConditionExpression: marks.v === 0 ? 'attribute_not_exists(pk)' : 'v = :v',
        ...(marks.v === 0 ? {} : { ExpressionAttributeValues: { ':v': marks.v } }),
      }),
    );
    return 'done';
  } catch (e) {
    if (isConditionalCheckFailed(e)) return 'changed';
    throw e;
  }
}

/**
 * One step of a user's erase: up to `limit` of the feeds listed as theirs deleted (definition and
 * list entry; a list entry whose definition is no longer theirs, alone), then — once none is left —
 * their seen marks and author weights. Returns how many items went (0: nothing of theirs is left).
 * Shared feeds an admin wrote are everyone's, and stay.
 */
export async function deleteOwnRankedFeeds(user: string, limit: number): Promise<number> {
  const page = await definitionPage(user, limit);
  for (const feedId of page.items) {
    const d = await getDefinition(feedId);
    if (d !== undefined && d.owner === user && !d.shared && (await deleteDefinition(d)) === 'done') continue;
    await doc.send(new DeleteCommand({ TableName: graph(), Key: definitionListKey(user, feedId) }));
  }
  if (page.items.length > 0) return page.items.length;
  const out = await doc.send(new DeleteCommand({ TableName: graph(), Key: readerMarksKey(user), ReturnValues: 'ALL_OLD' }));
  return out.Attributes === undefined ? 0 : 1;
}
