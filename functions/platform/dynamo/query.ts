/**
 * Query plumbing: one page, or every page of a key range (bounded). Stores build the input; this
 * only sends it. Items come back with `wrapNumbers` (Numbers as NumberValue), see clients.ts.
 */
import { type QueryCommandInput, type QueryCommandOutput, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc } from '../clients.js';

export type Item = Record<string, unknown>;

export interface QueryPage {
  readonly items: Item[];
  readonly lastEvaluatedKey?: Item;
}

export async function queryPage(input: QueryCommandInput): Promise<QueryPage> {
  const out: QueryCommandOutput = await doc.send(new QueryCommand(input));
  return { items: (out.Items ?? []) as Item[], lastEvaluatedKey: out.LastEvaluatedKey as Item | undefined };
}

/** A page of a list that knows whether more follow (queryListPage). */
export interface ListQueryPage {
  readonly items: Item[];
  readonly more: boolean;
}

/**
 * At most `Limit` items, and whether more follow: it reads one item more than it returns. (A
 * Query that reaches its Limit sets LastEvaluatedKey even when nothing is left, which would end a
 * list with an empty page.) For Queries without a FilterExpression, where Limit counts items.
 */
export async function queryListPage(input: QueryCommandInput & { Limit: number }): Promise<ListQueryPage> {
  const page = await queryPage({ ...input, Limit: input.Limit + 1 });
  return { items: page.items.slice(0, input.Limit), more: page.items.length > input.Limit };
}

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
    start = page.lastEvaluatedKey;
  } while (start && items.length < maxItems);
  return items.length > maxItems ? items.slice(0, maxItems) : items;
}
