/**
 * Retention by count, amortized: every feed write adds to a per-feed counter (graph table, one
 * UpdateItem per feed written); when the counter passes N + margin, one trim deletes the oldest
 * items down to N. A write never reads the feed; a trim reads and deletes only what it removes
 * (plus one lock write), so its cost is proportional to the items trimmed.
 *
 * The counter can drift (a redelivered fan-out job re-counts its copies; TTL removals and
 * retracted copies are not subtracted); every trim recounts and corrects it. Between trims an
 * overestimate makes reads hide a few of the oldest items early; a feed never stores more than
 * N + margin items.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tables } from '../../../lib/defs/tables.js';
import { doc } from '../clients.js';
import { requireEnv } from '../env.js';
import { feedMetaKey } from '../keys.js';
import { logger } from '../logger.js';
import { spanBound } from './bounds.js';
import type { RetentionPolicy } from './policy.js';

const feedTable = requireEnv(tables.feed.envVar);
const graphTable = requireEnv(tables.graph.envVar);
/** A trim lock older than this is presumed abandoned (its holder crashed). */
const LOCK_STALE_MS = 60_000;

/** With a span policy, every this-many writes to a feed also delete what fell out of the span. */
export const SPAN_CHECK_EVERY = 10;

/**
 * Record `added` new items in `owner`'s feed (the newest of them at `newestRk`); trims when the
 * count passes N + margin, and every SPAN_CHECK_EVERY writes drops items outside the span.
 * Returns the number of items trimmed.
 */
export async function countAndTrim(
  owner: string,
  added: number,
  policy: RetentionPolicy,
  newestRk?: bigint,
): Promise<number> {
  const counting = policy.maxItems !== undefined || policy.maxSpanMs !== undefined;
  if (!counting || added === 0) return 0;
  const { Attributes } = await doc.send(
    new UpdateCommand({
      TableName: graphTable,
      Key: feedMetaKey(owner),
      UpdateExpression: 'ADD #count :added',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':added': added },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const count = Number(Attributes?.count ?? 0);
  let trimmed = 0;
  if (policy.maxSpanMs !== undefined && newestRk !== undefined && count % SPAN_CHECK_EVERY < added) {
    trimmed += await trimBeyond(owner, spanBound(newestRk, policy)!);
  }
  if (policy.maxItems !== undefined && count - trimmed > policy.maxItems + policy.trimMargin) {
    trimmed += await trimFeed(owner, policy.maxItems, Math.max(1, Math.floor(policy.trimMargin / 2)));
  }
  return trimmed;
}

/** Deletes every item at or past `bound` (older than the span), oldest first, under the lock. */
export async function trimBeyond(owner: string, bound: bigint): Promise<number> {
  return withLock(owner, async () => {
    let deleted = 0;
    for (let round = 0; round < 40; round++) {
      const { Items = [] } = await doc.send(
        new QueryCommand({
          TableName: feedTable,
          KeyConditionExpression: 'pk = :pk AND rk >= :bound',
          ExpressionAttributeValues: { ':pk': owner, ':bound': bound },
          ProjectionExpression: 'pk, rk',
          Limit: 100,
        }),
      );
      for (let i = 0; i < Items.length; i += 25) {
        await deleteAll(Items.slice(i, i + 25).map((k) => ({ pk: k.pk as string, rk: BigInt(String(k.rk)) })));
      }
      deleted += Items.length;
      if (Items.length < 100) break;
    }
    return { deleted };
  });
}

/** The maintained item count of a feed (0 when never counted). */
export async function storedCount(owner: string): Promise<number> {
  const { Item } = await doc.send(new GetCommand({ TableName: graphTable, Key: feedMetaKey(owner) }));
  return Number(Item?.count ?? 0);
}

/**
 * Recounts the feed, then deletes its oldest items down to `maxItems`, under the lock. The recount
 * (a COUNT Query over the feed: read units for N + margin items, once per `margin` writes) sizes
 * the deletion exactly. It also corrects the counter when it has drifted by more than `tolerance`
 * (TTL removals, retracted copies, a redelivered job counted twice); smaller differences are
 * posts in flight — written, not yet counted — and are left alone, or they would be counted twice.
 */
export async function trimFeed(owner: string, maxItems: number, tolerance: number): Promise<number> {
  return withLock(owner, async (countedAtLock) => {
    const actual = await countItems(owner);
    const excess = Math.max(0, actual - maxItems);
    let keys: Record<string, unknown>[] = [];
    if (excess > 0) {
      const oldest = await doc.send(
        new QueryCommand({
          TableName: feedTable,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': owner },
          ProjectionExpression: 'pk, rk',
          ScanIndexForward: false, // descending rk = oldest first
          Limit: excess,
        }),
      );
      keys = oldest.Items ?? [];
      for (let i = 0; i < keys.length; i += 25) {
        await deleteAll(keys.slice(i, i + 25).map((k) => ({ pk: k.pk as string, rk: BigInt(String(k.rk)) })));
      }
    }
    // withLock subtracts what was deleted; this adds the recount's correction on top.
    const drift = actual - countedAtLock;
    return { deleted: keys.length, correction: Math.abs(drift) > tolerance ? drift : 0 };
  });
}

async function countItems(owner: string): Promise<number> {
  let total = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new QueryCommand({
        TableName: feedTable,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': owner },
        Select: 'COUNT',
        ExclusiveStartKey,
      }),
    );
    total += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return total;
}

/**
 * Runs one trim of a feed at a time (a conditional lock on the feed's meta item) and lowers the
 * count by what it deleted. A concurrent trim of the same feed skips (returns 0).
 */
async function withLock(
  owner: string,
  trim: (countedAtLock: number) => Promise<{ deleted: number; correction?: number }>,
): Promise<number> {
  const countedAtLock = await takeLock(owner);
  if (countedAtLock === undefined) return 0;
  let deleted = 0;
  let correction = 0;
  try {
    ({ deleted, correction = 0 } = await trim(countedAtLock));
  } finally {
    await doc.send(
      new UpdateCommand({
        TableName: graphTable,
        Key: feedMetaKey(owner),
        UpdateExpression: 'ADD #count :delta REMOVE trimLock',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':delta': correction - deleted },
      }),
    );
  }
  if (deleted) logger.debug('feed trimmed', { owner, deleted, correction });
  return deleted;
}

/** Takes the feed's trim lock; returns the counter's value at that moment, or undefined if held. */
async function takeLock(owner: string): Promise<number | undefined> {
  const now = Date.now();
  try {
    const { Attributes } = await doc.send(
      new UpdateCommand({
        TableName: graphTable,
        Key: feedMetaKey(owner),
        UpdateExpression: 'SET trimLock = :now',
        ConditionExpression: 'attribute_not_exists(trimLock) OR trimLock < :stale',
        ExpressionAttributeValues: { ':now': now, ':stale': now - LOCK_STALE_MS },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Number(Attributes?.count ?? 0);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** BatchWriteItem deletes with bounded, jittered retries of UnprocessedItems. */
async function deleteAll(keys: { pk: string; rk: bigint }[]): Promise<void> {
  let requests = keys.map((Key) => ({ DeleteRequest: { Key } }));
  for (let attempt = 0; requests.length; attempt++) {
    if (attempt >= 8) throw new Error(`trim: ${requests.length} deletes still unprocessed after ${attempt} attempts`);
    if (attempt) await new Promise((r) => setTimeout(r, Math.random() * Math.min(2000, 50 * 2 ** attempt)));
    const out = await doc.send(new BatchWriteCommand({ RequestItems: { [feedTable]: requests } }));
    requests = (out.UnprocessedItems?.[feedTable] ?? []) as typeof requests;
  }
}
