/**
 * DynamoDB's documented item-size and pricing rules
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html),
 * so a cost figure can be held against the minimum the service could charge for the same items:
 * DynamoDB Local's own meter is wrong in some corner cases (transactions, keys not found).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

export type Item = Record<string, AttributeValue>;

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** Bytes of a Number: 1 per two significant digits, + 1 (+ 1 more if negative, as the service's calculators count). */
export function numberSize(text: string): number {
  const negative = text.trim().startsWith('-');
  const significant = text.replace(/[-+.]|[eE].*$/g, '').replace(/^0+|0+$/g, '');
  const n = Math.max(1, significant.length);
  return Math.ceil(n / 2) + 1 + (negative ? 1 : 0);
}

/** Bytes of one attribute value (without its name); a list or map adds 3 bytes and 1 per element. */
export function valueSize(v: AttributeValue): number {
  if (v.S !== undefined) return utf8(v.S);
  if (v.N !== undefined) return numberSize(v.N);
  if (v.B !== undefined) return v.B.length;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.SS !== undefined) return v.SS.reduce((s, x) => s + utf8(x), 0);
  if (v.NS !== undefined) return v.NS.reduce((s, x) => s + numberSize(x), 0);
  if (v.BS !== undefined) return v.BS.reduce((s, x) => s + x.length, 0);
  if (v.L !== undefined) return 3 + v.L.reduce((s, x) => s + valueSize(x) + 1, 0);
  if (v.M !== undefined) return 3 + Object.entries(v.M).reduce((s, [k, x]) => s + utf8(k) + valueSize(x) + 1, 0);
  throw new Error(`unknown attribute value: ${JSON.stringify(v).slice(0, 80)}`);
}

/** Bytes of an item: sum over attributes of name length + value size. */
export function itemSize(item: Item): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += utf8(name) + valueSize(value);
  return size;
}

/** Same, for a plain JS item as the document client would write it. */
export function plainItemSize(item: Record<string, unknown>): number {
  return itemSize(marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: true }));
}

/** Write units of writing (or deleting) one item of `bytes`: 1 per started KB, again for each of `indexes` index copies. */
export function writeUnits(bytes: number, indexes = 0): number {
  const perCopy = Math.max(1, Math.ceil(bytes / 1024));
  return perCopy * (1 + indexes);
}

/** Read units of one Query (or Scan page): the items' sizes summed, 1 per started 4 KB strongly consistent, half that eventually. */
export function queryReadUnits(sizes: readonly number[], consistent = false): number {
  const total = sizes.reduce((s, x) => s + x, 0);
  const blocks = Math.max(1, Math.ceil(total / 4096));
  return consistent ? blocks : blocks / 2;
}

/** Read units of a GetItem / BatchGetItem element: per item, rounded up to 4 KB each. */
export function getReadUnits(bytes: number, consistent = false): number {
  const blocks = Math.max(1, Math.ceil(bytes / 4096));
  return consistent ? blocks : blocks / 2;
}

/** On-demand prices used by the cost figures (us-east-1 at the time of writing; stated in the output). */
export const onDemand = {
  dollarsPerMillionWrites: 0.625,
  dollarsPerMillionReads: 0.125,
} as const;

/** Dollars for `count` operations that each cost `wcu` write units and `rcu` read units. */
export function dollars(count: number, wcu: number, rcu: number): number {
  return (count * (wcu * onDemand.dollarsPerMillionWrites + rcu * onDemand.dollarsPerMillionReads)) / 1e6;
}
