/**
 * Newest-first pages of a feed (`pk = owner`) or of a user's own posts (`byAuthor` index), by
 * range-key cursor. Building the Query (`pageQuery`) and shaping its result (`pageOf`) are pure,
 * so unit tests assert the request; `readPage` sends exactly one Query per page.
 *
 * Cursors (rk ascending = newest first):
 *   none        → the newest `limit` items.
 *   before=c    → `rk > c`, ascending: the `limit` items just older than c (the next page).
 *   since=c     → `rk < c`, DESCENDING (ScanIndexForward=false): the `limit` items just newer
 *                 than c, i.e. closest to the cursor, then reversed to newest first. A client
 *                 catching up repeats `since=<items[0].rangeKey>` until a page is not full; taking
 *                 the items closest to the cursor (not the newest ones) is what leaves no gap.
 * A retention bound (exclusive upper bound on rk, see retention/) is added to the key condition.
 *
 * "Is there more?" without a second Query: we ask for `limit + 1` items. If the extra one comes
 * back, there is more, and the page ends at item `limit`. DynamoDB's own LastEvaluatedKey is not
 * enough alone: it is present whenever the Limit was reached, even if nothing follows, which
 * would make every exactly-full last page cost the client one more, empty, request.
 * Items marked deleted are filtered out (FilterExpression, applied after Limit): a page may then
 * come back short while LastEvaluatedKey is set, and paging resumes from that last EVALUATED key.
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tables } from '../../../lib/defs/tables.js';
import { doc } from '../clients.js';
import { type Activity, toActivity } from './activity.js';

export type PageSource = { readonly kind: 'feed'; readonly owner: string } | { readonly kind: 'author'; readonly userId: string };

export interface PageRequest {
  readonly source: PageSource;
  readonly limit: number;
  readonly before?: bigint;
  readonly since?: bigint;
  /** Exclusive upper bound on rk from retention (items at or past it are hidden). */
  readonly bound?: bigint;
}

export interface Page {
  items: Activity[];
  /** For `before`: the next page's cursor; null when nothing older remains. */
  lastRangeKey: string | null;
}

const byAuthor = tables.feed.globalIndexes.find((i) => i.indexName === 'byAuthor')!;

/** The one Query for a page, or undefined when the cursor and bound leave an empty key range. */
export function pageQuery(table: string, req: PageRequest): QueryCommandInput | undefined {
  const minBigint = (a: bigint | undefined, b: bigint | undefined) => (a === undefined ? b : b === undefined ? a : a < b ? a : b);
  const lo = req.before; // exclusive
  const hi = minBigint(req.since, req.bound); // exclusive
  const values: Record<string, unknown> = {
    ':owner': req.source.kind === 'feed' ? req.source.owner : req.source.userId,
  };
  let range = '';
  if (lo !== undefined && hi !== undefined) {
    // rk is an integer: lo < rk < hi  ⇔  rk BETWEEN lo+1 AND hi-1 (BETWEEN rejects lo > hi).
    if (lo + 1n > hi - 1n) return undefined;
    range = ' AND #rk BETWEEN :lo AND :hi';
    values[':lo'] = lo + 1n;
    values[':hi'] = hi - 1n;
  } else if (lo !== undefined) {
    range = ' AND #rk > :lo';
    values[':lo'] = lo;
  } else if (hi !== undefined) {
    range = ' AND #rk < :hi';
    values[':hi'] = hi;
  }
  const feed = req.source.kind === 'feed';
  return {
    TableName: table,
    ...(feed ? {} : { IndexName: byAuthor.indexName }),
    KeyConditionExpression: `#owner = :owner${range}`,
    FilterExpression: 'attribute_not_exists(deletedAt)',
    // DynamoDB refuses unused names, so `#rk` only when there is a range condition.
    ExpressionAttributeNames: {
      '#owner': feed ? tables.feed.partitionKey.name : byAuthor.partitionKey.name,
      ...(range ? { '#rk': 'rk' } : {}),
    },
    ExpressionAttributeValues: values,
    ScanIndexForward: req.since === undefined,
    Limit: req.limit + 1,
  };
}

/** Shape a Query result into a page (see the module comment for the cursor rules). */
export function pageOf(
  req: PageRequest,
  out: { Items?: Record<string, unknown>[]; LastEvaluatedKey?: Record<string, unknown> },
): Page {
  const raw = out.Items ?? [];
  const more = raw.length > req.limit;
  const kept = more ? raw.slice(0, req.limit) : raw;
  if (req.since !== undefined) {
    const items = kept.map(toActivity).reverse();
    return { items, lastRangeKey: items.at(-1)?.rangeKey ?? null };
  }
  const items = kept.map(toActivity);
  let lastRangeKey: string | null = null;
  if (more) lastRangeKey = items.at(-1)!.rangeKey;
  else if (out.LastEvaluatedKey) lastRangeKey = String(out.LastEvaluatedKey.rk); // short page after the filter
  return { items, lastRangeKey };
}

export async function readPage(table: string, req: PageRequest): Promise<Page> {
  const input = pageQuery(table, req);
  if (!input) return { items: [], lastRangeKey: null };
  const out = await doc.send(new QueryCommand(input));
  return pageOf(req, out);
}
