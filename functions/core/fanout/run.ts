/**
 * What the fan-out worker does with each job. Every step is idempotent (deterministic keys), every
 * loop is bounded by a page, and a job that cannot finish throws so its message comes back (and,
 * after maxReceiveCount, lands in the DLQ).
 *
 * Paging: a job handles ONE page of followers. It sends the continuation for the next page BEFORE
 * writing its own page, so pages of a big fan-out run in parallel on the worker's pollers, and a
 * failure after the send loses nothing: the message comes back and rewrites the same keys. (A
 * redelivered page may send its continuation twice; both chains write the same keys.)
 */
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { tables } from '../../../lib/defs/tables.js';
import { doc } from '../clients.js';
import { readConfig } from '../config.js';
import { requireEnv } from '../env.js';
import { feedItemKey, profileKey, pulledKey, rangeKeyOf } from '../keys.js';
import { logger } from '../logger.js';
import { nowTicks } from '../ticks.js';
import { clearPending, getEdge, listFollows } from '../graph/follows.js';
import { batchWriteAll } from './batch-write.js';
import { type FeedItem, deleteFeedCopies, fanOutCopies, writeFeedCopies } from './copies.js';
import { enqueueJob, type Job, type StreamImage } from './jobs.js';
import { pullThresholds } from './thresholds.js';

const feedTable = requireEnv(tables.feed.envVar);
const graphTable = requireEnv(tables.graph.envVar);
const backfillLimit = readConfig('BACKFILL_LIMIT');

/** Followers per fan-out/retract/pull page: 20 BatchWriteItem calls. */
export const FOLLOWER_PAGE = 500;
/** Followers per unpull page: each gets up to BACKFILL_LIMIT copies. */
export const UNPULL_PAGE = 50;

export async function runJob(job: Job): Promise<void> {
  switch (job.kind) {
    case 'fanout':
      return fanout(job);
    case 'retract':
      return retract(job);
    case 'backfill':
      return backfill(job.follower, job.followee);
    case 'cleanup':
      return cleanup(job.follower, job.followee);
    case 'pull':
      return pull(job);
    case 'unpull':
      return unpull(job);
  }
}

async function fanout(job: Extract<Job, { kind: 'fanout' }>): Promise<void> {
  const rk = BigInt(job.rk);
  // Decided once, on the first page: a pulled author's posts are merged at read time instead.
  if (!job.cursor && (await profile(job.author)).pulled) {
    logger.debug('author is pulled: no fan-out', { author: job.author, rk: job.rk });
    return;
  }
  // A deleted post stops its fan-out at the next page (its retract job removes what was written).
  if (!(await originalExists(job.author, rk))) return;
  const page = await listFollows('followers', job.author, FOLLOWER_PAGE, job.cursor);
  if (page.cursor) await enqueueJob({ ...job, cursor: page.cursor });
  const item = unmarshall(job.image as Parameters<typeof unmarshall>[0], { wrapNumbers: true }) as FeedItem;
  await fanOutCopies(page.userIds, item);
}

async function retract(job: Extract<Job, { kind: 'retract' }>): Promise<void> {
  const rk = BigInt(job.rk);
  const page = await listFollows('followers', job.author, FOLLOWER_PAGE, job.cursor);
  if (page.cursor) await enqueueJob({ ...job, cursor: page.cursor });
  await deleteFeedCopies(page.userIds.map((owner) => ({ owner, rk })));
  // Reads hide the marked original already; remove it once the last page is done. (Pages run in
  // parallel, so earlier ones may still be deleting: harmless, every copy is deleted by key.)
  if (!page.cursor && job.removeOriginal) {
    await doc.send(
      new DeleteCommand({
        TableName: feedTable,
        Key: feedItemKey(job.author, rk),
        ConditionExpression: 'attribute_exists(deletedAt)',
      }),
    ).catch((error: Error) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error; // already removed
    });
  }
}

async function backfill(follower: string, followee: string): Promise<void> {
  const edge = await getEdge(follower, followee);
  if (edge?.state !== 'active') return; // unfollowed meanwhile: nothing to copy
  if (!(await profile(followee)).pulled) {
    const originals = await recentOriginals(followee, backfillLimit);
    await writeFeedCopies(originals.map((item) => ({ owner: follower, item })));
    // Unfollowed while we copied? Take the copies back out (the cleanup may have run before us).
    if ((await getEdge(follower, followee))?.state !== 'active') {
      await deleteFeedCopies(originals.map((o) => ({ owner: follower, rk: rkOf(o) })));
      return;
    }
  }
  await clearPending(follower, followee, 'backfillPending', 'active');
}

/**
 * Removes an unfollowed user's posts from the ex-follower's feed without reading that feed: every
 * copy has its original's rk, so the candidates are the followee's originals that could have been
 * copied — all posted since the follow, plus the BACKFILL_LIMIT newest before it — read newest
 * first from `byAuthor` and deleted by key. Cost ∝ those candidates, not the feed's size.
 */
async function cleanup(follower: string, followee: string): Promise<void> {
  const edge = await getEdge(follower, followee);
  if (edge?.state !== 'gone') return; // followed again: keep the feed as it is
  const followRk = rangeKeyOf(BigInt(edge.followedAt), 0n);
  const rks: bigint[] = [];
  let older = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(
      new QueryCommand({
        TableName: feedTable,
        IndexName: 'byAuthor',
        KeyConditionExpression: 'author = :a',
        ExpressionAttributeValues: { ':a': followee },
        ProjectionExpression: 'rk',
        Limit: 200,
        ExclusiveStartKey: start,
      }),
    );
    for (const o of out.Items ?? []) {
      const rk = rkOf(o);
      if (rk >= followRk && ++older > backfillLimit) break;
      rks.push(rk);
    }
    start = older > backfillLimit ? undefined : out.LastEvaluatedKey;
  } while (start);
  await deleteFeedCopies(rks.map((rk) => ({ owner: follower, rk })));
  await clearPending(follower, followee, 'cleanupPending', 'gone');
}

/** Up to `limit` newest originals of `author` (full items, for copying). */
export async function recentOriginals(author: string, limit: number, newerThan?: bigint): Promise<FeedItem[]> {
  if (limit <= 0) return [];
  const { Items = [] } = await doc.send(
    new QueryCommand({
      TableName: feedTable,
      IndexName: 'byAuthor',
      KeyConditionExpression: newerThan === undefined ? 'author = :a' : 'author = :a AND rk < :bound',
      ExpressionAttributeValues: { ':a': author, ...(newerThan === undefined ? {} : { ':bound': newerThan }) },
      FilterExpression: 'attribute_not_exists(deletedAt)',
      Limit: limit,
    }),
  );
  return Items as FeedItem[];
}

// ---- hybrid: crossing the threshold -------------------------------------------------------

/** Author crossed up: set the flag (first page), then add the author to each follower's pulled set. */
async function pull(job: Extract<Job, { kind: 'pull' }>): Promise<void> {
  if (!job.cursor) {
    const p = await profile(job.author);
    if (!p.pulled) {
      if (p.followers < pullThresholds().pullAt) return; // fell back below before we ran
      await setPulled(job.author, true);
    }
  } else if (!(await profile(job.author)).pulled) return; // unpulled meanwhile: its job cleans up
  const page = await listFollows('followers', job.author, FOLLOWER_PAGE, job.cursor);
  if (page.cursor) await enqueueJob({ ...job, cursor: page.cursor });
  await batchWriteAll(graphTable, page.userIds.map((f) => ({ PutRequest: { Item: { ...pulledKey(f, job.author) } } })));
}

/**
 * Author fell below the lower threshold: clear the flag (first page), then per page of followers
 * copy the author's newest BACKFILL_LIMIT posts (those of the pull era among them; the others are
 * rewritten in place) into their feeds BEFORE dropping the author from their pulled sets — a read
 * in between sees both, deduplicated by rk. Cost: ≤ followers × BACKFILL_LIMIT writes, once per
 * flip; the 10 % hysteresis keeps flips rare.
 */
async function unpull(job: Extract<Job, { kind: 'unpull' }>): Promise<void> {
  const p = await profile(job.author);
  if (!job.cursor && p.pulled) {
    if (p.followers >= pullThresholds().unpullBelow) return; // back up before we ran
    await setPulled(job.author, false);
  } else if (p.pulled) return; // pulled again meanwhile: its job owns the sets
  const page = await listFollows('followers', job.author, UNPULL_PAGE, job.cursor);
  if (page.cursor) await enqueueJob({ ...job, cursor: page.cursor });
  // The newest BACKFILL_LIMIT originals, not "those since pulledAt": a post's rk comes from its
  // (client-settable) time, so posts of the pull era need not sort after the flip.
  const originals = await recentOriginals(job.author, backfillLimit);
  await writeFeedCopies(page.userIds.flatMap((owner) => originals.map((item) => ({ owner, item }))));
  await batchWriteAll(graphTable, page.userIds.map((f) => ({ DeleteRequest: { Key: pulledKey(f, job.author) } })));
}

// ---- helpers --------------------------------------------------------------------------------

interface ProfileState {
  followers: number;
  pulled: boolean;
  pulledAt?: bigint;
}

async function profile(userId: string): Promise<ProfileState> {
  const { Item } = await doc.send(new GetCommand({ TableName: graphTable, Key: profileKey(userId), ConsistentRead: true }));
  return {
    followers: Number(Item?.followers?.toString() ?? 0),
    pulled: Item?.pulled === true,
    pulledAt: Item?.pulledAt === undefined ? undefined : BigInt(String(Item.pulledAt)),
  };
}

async function setPulled(author: string, pulled: boolean): Promise<void> {
  await doc.send(
    new UpdateCommand({
      TableName: graphTable,
      Key: profileKey(author),
      UpdateExpression: pulled ? 'SET pulled = :p, pulledAt = :now' : 'SET pulled = :p',
      ExpressionAttributeValues: { ':p': pulled, ...(pulled ? { ':now': nowTicks() } : {}) },
    }),
  );
}

/** The original is there and not marked deleted. */
async function originalExists(author: string, rk: bigint): Promise<boolean> {
  const { Item } = await doc.send(
    new GetCommand({ TableName: feedTable, Key: feedItemKey(author, rk), ProjectionExpression: 'pk, deletedAt', ConsistentRead: true }),
  );
  return Item !== undefined && Item.deletedAt === undefined;
}

const rkOf = (item: Record<string, unknown>): bigint => BigInt(String(item.rk));

export type { StreamImage };
