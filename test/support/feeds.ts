import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc, stack } from './local.js';

/** Items in `owner`'s stored feed (Select COUNT, all pages). */
export async function feedCount(owner: string): Promise<number> {
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(
      new QueryCommand({
        TableName: stack.tableNames.feed,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': owner },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    total += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return total;
}

/** rks (as strings) in `owner`'s stored feed, newest first, all pages. */
export async function feedRks(owner: string): Promise<string[]> {
  const rks: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(
      new QueryCommand({
        TableName: stack.tableNames.feed,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': owner },
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
export async function feedCounts(owners: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let next = 0;
  const lane = async () => {
    while (next < owners.length) {
      const owner = owners[next++]!;
      counts.set(owner, await feedCount(owner));
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
  return counts;
}
