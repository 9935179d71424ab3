/**
 * Query plumbing: one page, or every page of a key range (bounded). Stores build the input; this
 * only sends it. Items come back with `wrapNumbers` (Numbers as NumberValue), see clients.ts.
 */
import { type QueryCommandInput, type QueryCommandOutput, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc } from '../clients.js';

export type Item = Record<string, unknown>;

/**
 * The one page shape stores and services pass: its items, and `last` — where the next page starts
 * (the key to continue after) — only when more may follow. Stores map the raw key to what their
 * callers page by (a sort key, a range key). Only the API's two wire contracts differ: a list's
 * opaque `next` (services/list-page.ts) and a feed's `lastRangeKey` (http/feed-page.ts).
 */
export interface Page<T, K> {
  readonly items: T[];
  readonly last?: K;
}

/**
 * One Query call; `last` is its LastEvaluatedKey, so a page that ends exactly at the range's end
 * may still name a `last` (the next call then finds nothing, for the price of one empty call).
 * Walks that page through a range on their own (jobs, feeds) read this way.
 */
export async function queryPage(input: QueryCommandInput): Promise<Page<Item, Item>> {
  const out: QueryCommandOutput = await doc.send(new QueryCommand(input));
  return { items: (out.Items ?? []) as Item[], last: out.LastEvaluatedKey as Item | undefined };
}

/**
 * At most `Limit` items, and `last` (the last item's key) only when more follow: it reads one
 * item more than it returns. (A Query that reaches its Limit sets LastEvaluatedKey even when
 * nothing is left, which would end an API list with an empty page.) A Query that stopped short of
 * Limit + 1 with a LastEvaluatedKey was cut by DynamoDB's 1 MB per call: more may follow, from
 * that key. For Queries without a FilterExpression, where Limit counts items; `keyOf` names the
 * key of an item (or of a LastEvaluatedKey, which holds the same attributes).
 */
export async function queryListPage<K>(input: QueryCommandInput & { Limit: number }, keyOf: (item: Item) => K): Promise<Page<Item, K>> {
  const page = await queryPage({ ...input, Limit: input.Limit + 1 });
  if (page.items.length > input.Limit) {
    const items = page.items.slice(0, input.Limit);
    return { items, last: keyOf(items.at(-1)!) };
  }
  return page.last === undefined ? { items: page.items } : { items: page.items, last: keyOf(page.last) };
}

/** A page with its items and key mapped (a store's page of model values from raw items). */
export const mapPage = <T, K, U, L>(page: Page<T, K>, item: (i: T) => U, key: (k: K) => L): Page<U, L> =>
  page.last === undefined ? { items: page.items.map(item) } : { items: page.items.map(item), last: key(page.last) };

/** The sort key of a key or item (graph-table lists page by it). */
export const sortKeyOf = (key: Item): string => String(key.sk);

/**
 * Every item of a Query, page after page, stopping once `maxItems` are collected (the last page
 * may overshoot; the result is cut to `maxItems`).
 */
export async function queryAll(input: QueryCommandInput, maxItems = Number.POSITIVE_INFINITY): Promise<Item[]> {
  const items: Item[] = [];
  let start = input.ExclusiveStartKey;
  do {
    // Never ask a later page for more than is still wanted: a Query pays for what it reads.
    const wanted = maxItems - items.length;
    const limit = input.Limit === undefined ? (Number.isFinite(wanted) ? wanted : undefined) : Math.min(input.Limit, wanted);
    const page = await queryPage({ ...input, ExclusiveStartKey: start, ...(limit === undefined ? {} : { Limit: limit }) });
    items.push(...page.items);
    start = page.last;
  } while (start && items.length < maxItems);
  return items.length > maxItems ? items.slice(0, maxItems) : items;
}
