/**
 * What a stack's feed table stores, read straight from it (not through the API): the copies of a
 * home feed, the items of a timeline. On the shared stack, or `on` a test file's own.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { timelinePartition } from '../../functions/model/timeline-item.js';
import { shared } from './local.js';
import type { TestStack } from './stack-info.js';

type Tables = Pick<TestStack, 'doc' | 'tableNames'>;

/** Home-feed copies only: the head item (rk 0) is not a feed item. */
const copies = (owner: string) => ({
  KeyConditionExpression: 'pk = :pk AND rk > :head',
  ExpressionAttributeValues: { ':pk': homeFeedPartition(owner), ':head': 0 },
});

/** Copies in `owner`'s stored home feed (Select COUNT, all pages). */
/** The ids of a page's items, in the page's order. */
export const idsOf = (page: { items: { id: string }[] }): string[] => page.items.map((i) => i.id);

export async function feedCount(owner: string, on: Tables = shared): Promise<number> {
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await on.doc.send(
      new QueryCommand({
        TableName: on.tableNames.feed,
        ...copies(owner),
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    total += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return total;
}

/** rks (as strings) in `owner`'s stored home feed, newest first, all pages. */
export async function feedRks(owner: string, on: Tables = shared): Promise<string[]> {
  return partitionRks(on, copies(owner));
}

/** rks (as strings) of `author`'s stored timeline (tombstones included), newest first. */
export async function timelineRks(author: string, on: Tables = shared): Promise<string[]> {
  return partitionRks(on, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': timelinePartition(author) } });
}

async function partitionRks(on: Tables, range: { KeyConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> }): Promise<string[]> {
  const rks: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await on.doc.send(
      new QueryCommand({
        TableName: on.tableNames.feed,
        ...range,
        ProjectionExpression: 'rk',
        ExclusiveStartKey: start,
      }),
    );
    rks.push(...(out.Items ?? []).map((i) => String(i.rk)));
    start = out.LastEvaluatedKey;
  } while (start);
  return rks;
}

/** Counts per owner, 16 Queries in flight. */
export async function feedCounts(owners: readonly string[], on: Tables = shared): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let next = 0;
  const lane = async () => {
    while (next < owners.length) {
      const owner = owners[next++]!;
      counts.set(owner, await feedCount(owner, on));
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
  return counts;
}
