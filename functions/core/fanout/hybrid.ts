/**
 * Hybrid fan-out, read side. Authors with ≥ FANOUT_PULL_THRESHOLD followers are "pulled": their
 * posts are not copied; each follower's `pulled#<follower>` set names the pulled authors they
 * follow, and a feed read merges the stored feed with those authors' originals (`byAuthor`).
 *
 *   k+1 Queries for k pulled followees, each with the same key condition (before/since cursor and
 *   retention bound) and Limit; merged by rk (a global time order); duplicates (a copy written
 *   before the author was pulled + the same original via pull, or copies an unpull is writing)
 *   collapse by rk.
 */
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { toActivity } from '../feed/activity.js';
import { type Page, type PageRequest, pageQuery, readPage } from '../feed/read.js';
import { tables } from '../../../lib/defs/tables.js';
import { doc } from '../clients.js';
import { requireEnv } from '../env.js';
import { followEdgeKey, pulledPartition } from '../keys.js';

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

/**
 * One page of `owner`'s home feed, merged with the originals of the pulled authors they follow:
 * k+1 Queries (feed/read.ts builds each, same cursor, retention bound and deleted-filter), merged
 * by rk, deduplicated by rk. With no pulled followees it is exactly `readPage` (one Query).
 *
 * No gaps: a source that may hold more than it returned has a frontier (its last evaluated rk);
 * the merged page only keeps items on the near side of the tightest frontier, and for `before`
 * pages the next cursor is the last kept item (or that frontier). Each full source returns
 * `limit` items up to its own frontier, so a page is only short when a filter (deleted items)
 * shortened a source, as for a single-source page.
 */
export async function readMergedFeed(table: string, req: PageRequest, pulled?: readonly string[]): Promise<Page> {
  if (req.source.kind !== 'feed') return readPage(table, req);
  const authors = pulled ?? (await pulledFollowees(req.source.owner));
  if (authors.length === 0) return readPage(table, req);
  const sources: PageRequest[] = [req, ...authors.map((userId) => ({ ...req, source: { kind: 'author' as const, userId } }))];
  const results = await Promise.all(sources.map((r) => querySource(table, r)));
  return mergeSources(results, req);
}

export interface SourceResult {
  /** In query order: ascending rk for newest-first pages, descending for `since`. */
  readonly items: Record<string, unknown>[];
  /** rk up to which this source is complete, when it may hold more. */
  readonly frontier?: bigint;
}

async function querySource(table: string, req: PageRequest): Promise<SourceResult> {
  const input = pageQuery(table, req);
  if (!input) return { items: [] };
  const out = await doc.send(new QueryCommand(input));
  const raw = out.Items ?? [];
  const more = raw.length > req.limit;
  const items = more ? raw.slice(0, req.limit) : raw;
  if (more) return { items, frontier: rkOf(items.at(-1)!) };
  if (out.LastEvaluatedKey) return { items, frontier: rkOf(out.LastEvaluatedKey) };
  return { items };
}

/** Pure merge of per-source results into one page (unit-testable). */
export function mergeSources(results: readonly SourceResult[], req: Pick<PageRequest, 'limit' | 'since'>): Page {
  const sinceMode = req.since !== undefined;
  const byRk = new Map<bigint, Record<string, unknown>>();
  for (const r of results) for (const item of r.items) if (!byRk.has(rkOf(item))) byRk.set(rkOf(item), item);
  const frontiers = results.map((r) => r.frontier).filter((f): f is bigint => f !== undefined);
  // Newest-first pages move to larger rk: safe up to the smallest frontier. `since` pages move to
  // smaller rk from the cursor: safe down to the largest frontier.
  const frontier = frontiers.length === 0 ? undefined : frontiers.reduce((a, b) => (sinceMode ? (a > b ? a : b) : a < b ? a : b));
  let rks = [...byRk.keys()].filter((rk) => frontier === undefined || (sinceMode ? rk >= frontier : rk <= frontier));
  rks.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (sinceMode) {
    rks = rks.slice(-req.limit); // the items closest to the cursor, newest first
    const items = rks.map((rk) => toActivity(byRk.get(rk)!));
    return { items, lastRangeKey: items.at(-1)?.rangeKey ?? null };
  }
  const kept = rks.slice(0, req.limit);
  const items = kept.map((rk) => toActivity(byRk.get(rk)!));
  let lastRangeKey: string | null = null;
  if (rks.length > req.limit) lastRangeKey = String(kept.at(-1)!);
  else if (frontier !== undefined) lastRangeKey = String(frontier);
  return { items, lastRangeKey };
}

const rkOf = (item: Record<string, unknown>): bigint => BigInt(String(item.rk));
