/**
 * The read side of retention: the exclusive upper bound on rk that a feed read adds to its key
 * condition so it never returns an item that retention has removed or is about to remove —
 * expired by age (even before DynamoDB's TTL deletes it), outside the span of the newest item,
 * or past the N newest while storage overshoots N by up to the trim margin.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tables } from '../../../lib/defs/tables.js';
import { doc } from '../clients.js';
import { requireEnv } from '../env.js';
import { ageBound, spanBound, tightest } from './bounds.js';
import type { RetentionPolicy } from './policy.js';
import { storedCount } from './trim.js';

const feedTable = requireEnv(tables.feed.envVar);

export async function visibleBound(
  owner: string,
  policy: RetentionPolicy,
  nowTicks: bigint,
): Promise<bigint | undefined> {
  const age = ageBound(nowTicks, policy);
  const [span, count] = await Promise.all([
    policy.maxSpanMs === undefined ? undefined : newestRk(owner, age).then((rk) => (rk === undefined ? undefined : spanBound(rk, policy))),
    policy.maxItems === undefined ? undefined : countBound(owner, policy.maxItems),
  ]);
  return tightest(age, span, count);
}

/** rk of the newest live item (one 1-item Query), or undefined for an empty feed. */
async function newestRk(owner: string, below: bigint | undefined): Promise<bigint | undefined> {
  const { Items } = await doc.send(
    new QueryCommand({
      TableName: feedTable,
      KeyConditionExpression: below === undefined ? 'pk = :pk' : 'pk = :pk AND rk < :below',
      ExpressionAttributeValues: { ':pk': owner, ...(below === undefined ? {} : { ':below': below }) },
      ProjectionExpression: 'rk',
      Limit: 1,
    }),
  );
  return Items?.[0] ? BigInt(String(Items[0].rk)) : undefined;
}

/**
 * While a feed overshoots N (by at most the trim margin), the overshoot's oldest items are hidden:
 * the bound is the rk of the newest of them. Costs a read of the overshoot only when there is one.
 */
async function countBound(owner: string, maxItems: number): Promise<bigint | undefined> {
  const count = await storedCount(owner);
  if (count <= maxItems) return undefined;
  const { Items = [] } = await doc.send(
    new QueryCommand({
      TableName: feedTable,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': owner },
      ProjectionExpression: 'rk',
      ScanIndexForward: false,
      Limit: count - maxItems,
    }),
  );
  const last = Items.at(-1);
  return last ? BigInt(String(last.rk)) : undefined;
}
