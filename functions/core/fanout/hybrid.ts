/**
 * Hybrid fan-out, read side. Authors with ≥ FANOUT_PULL_THRESHOLD followers are "pulled": their
 * posts are not copied; each follower's `pulled#<follower>` set names the pulled authors they
 * follow, and a feed read merges the stored feed with those authors' originals (`byAuthor`).
 *
 *   k+1 Queries for k pulled followees, each with the same key condition (before/since cursor and
 *   retention bound) and Limit; merged by rk (a global time order); duplicates (a copy written
 *   before the author was pulled + the same original via pull) collapse by rk.
 */
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tables } from '../../../lib/defs/tables.js';
import { doc } from '../clients.js';
import { requireEnv } from '../env.js';
import { followEdgeKey, pulledPartition } from '../keys.js';

const feedTable = requireEnv(tables.feed.envVar);
const graphTable = requireEnv(tables.graph.envVar);
/** Bound on the pulled set read per feed request (a user following more celebrities sees the first). */
export const MAX_PULLED_PER_READ = 100;

/**
 * The pulled authors `owner` follows. Each entry is checked against its follow edge (one
 * BatchGetItem), because a pull job may re-add an entry just after an unfollow removed it.
 */
export async function pulledFollowees(owner: string): Promise<string[]> {
  const { Items = [] } = await doc.send(
    new QueryCommand({
      TableName: graphTable,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pulledPartition(owner) },
      ProjectionExpression: 'sk',
      Limit: MAX_PULLED_PER_READ,
    }),
  );
  const candidates = Items.map((i) => i.sk as string);
  if (candidates.length === 0) return [];
  const { Responses } = await doc.send(
    new BatchGetCommand({
      RequestItems: {
        [graphTable]: {
          Keys: candidates.map((a) => followEdgeKey(owner, a)),
          ProjectionExpression: 'sk, #state',
          ExpressionAttributeNames: { '#state': 'state' },
        },
      },
    }),
  );
  const active = new Set((Responses?.[graphTable] ?? []).filter((e) => e.state === 'active').map((e) => e.sk as string));
  return candidates.filter((a) => active.has(a));
}

export interface PageRequest {
  readonly limit: number;
  /** Older than this rk (exclusive): the next page. */
  readonly before?: bigint;
  /** Newer than this rk (exclusive): a refresh. Returns the items closest to the cursor. */
  readonly since?: bigint;
  /** Exclusive upper bound on rk from retention (items past it are hidden). */
  readonly visibleBelow?: bigint;
}

export type FeedRow = Record<string, unknown> & { rk: unknown };

export interface MergedPage {
  /** Newest first, at most `limit`, unique by rk. */
  readonly items: FeedRow[];
  /** rk of the last item when there may be more (pass as `before`). */
  readonly next?: bigint;
}

/**
 * One page of `owner`'s feed merged with their pulled followees' originals. With no pulled
 * followees this is exactly one Query of the stored feed.
 */
export async function readMergedFeed(owner: string, req: PageRequest, pulled?: readonly string[]): Promise<MergedPage> {
  const authors = pulled ?? (await pulledFollowees(owner));
  const sources = [
    queryPage({ pk: owner }, req),
    ...authors.map((a) => queryPage({ author: a }, req)),
  ];
  const pages = await Promise.all(sources);
  return mergePages(pages, req);
}

/** Merge per-source pages (each ordered as queried) into one page: pure, unit-testable. */
export function mergePages(pages: readonly { items: FeedRow[]; more: boolean }[], req: PageRequest): MergedPage {
  const byRk = new Map<bigint, FeedRow>();
  for (const p of pages) for (const item of p.items) {
    const rk = BigInt(String(item.rk));
    if (!byRk.has(rk)) byRk.set(rk, item);
  }
  let rks = [...byRk.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)); // newest first
  // For `since`, each source returned the items closest to the cursor: keep the closest `limit`.
  rks = req.since !== undefined && req.before === undefined ? rks.slice(-req.limit) : rks.slice(0, req.limit);
  const items = rks.map((rk) => byRk.get(rk)!);
  // A source that filled its page may hold more; so may the merge if it cut items off.
  const more = byRk.size > req.limit || pages.some((p) => p.more);
  const last = rks.at(-1);
  return { items, ...(more && last !== undefined ? { next: last } : {}) };
}

async function queryPage(
  key: { pk: string } | { author: string },
  req: PageRequest,
): Promise<{ items: FeedRow[]; more: boolean }> {
  const byAuthor = 'author' in key;
  const conditions: string[] = [byAuthor ? 'author = :p' : 'pk = :p'];
  const values: Record<string, unknown> = { ':p': byAuthor ? key.author : key.pk };
  // Ascending rk = newest first. Older than `before`: rk > before. Newer than `since` and still
  // visible under retention: rk < min(since, visibleBelow).
  const lo = req.before;
  const hi = [req.since, req.visibleBelow]
    .filter((b): b is bigint => b !== undefined)
    .reduce<bigint | undefined>((m, b) => (m === undefined || b < m ? b : m), undefined);
  if (lo !== undefined && hi !== undefined) {
    if (hi - lo < 2n) return { items: [], more: false };
    conditions.push('rk BETWEEN :lo AND :hi');
    values[':lo'] = lo + 1n;
    values[':hi'] = hi - 1n;
  } else if (lo !== undefined) {
    conditions.push('rk > :lo');
    values[':lo'] = lo;
  } else if (hi !== undefined) {
    conditions.push('rk < :hi');
    values[':hi'] = hi;
  }
  return runQuery(byAuthor, conditions, values, req);
}

async function runQuery(
  byAuthor: boolean,
  conditions: string[],
  values: Record<string, unknown>,
  req: PageRequest,
): Promise<{ items: FeedRow[]; more: boolean }> {
  const { Items = [], LastEvaluatedKey } = await doc.send(
    new QueryCommand({
      TableName: feedTable,
      ...(byAuthor ? { IndexName: 'byAuthor' } : {}),
      KeyConditionExpression: conditions.join(' AND '),
      ExpressionAttributeValues: values,
      Limit: req.limit,
      ScanIndexForward: !(req.since !== undefined && req.before === undefined),
    }),
  );
  return { items: Items as FeedRow[], more: LastEvaluatedKey !== undefined };
}
