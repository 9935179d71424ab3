/**
 * DynamoDB's documented size and pricing rules, so cost figures can be checked against the
 * minimum the service could charge for the same items (DynamoDB Local's own meter is wrong in
 * some corner cases). Pure functions: no network.
 *
 * Item size (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
 *  - every attribute: UTF-8 length of its name + the size of its value;
 *  - String: UTF-8 bytes; Binary: raw bytes; Boolean/Null: 1 byte;
 *  - Number: 1 byte per two significant digits (leading/trailing zeros trimmed) + 1 byte
 *    (+1 for a negative number, as the service's size calculators count it);
 *  - List/Map: 3 bytes + each element (+1 byte per element; map keys count as names);
 *  - sets: the sum of their elements.
 * Units: a write costs 1 WCU per started KB of the item (each GSI that holds the item adds its
 * own write of the projected item); a delete costs the size of the deleted item; a Query sums the
 * sizes of the items it read, rounds up to 4 KB, and charges 1 RCU per 4 KB strongly consistent,
 * 0.5 eventually consistent (minimum one 4 KB unit per request).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

export type Item = Record<string, AttributeValue>;

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** Bytes of a Number value under DynamoDB's rule. */
export function numberSize(text: string): number {
  const negative = text.trim().startsWith('-');
  const digits = text
    .replace(/[-+]/g, '')
    .replace(/[eE].*$/, '')
    .replace('.', '');
  const significant = digits.replace(/^0+/, '').replace(/0+$/, '');
  const n = Math.max(1, significant.length);
  return Math.ceil(n / 2) + 1 + (negative ? 1 : 0);
}

/** Bytes of one attribute value (without its name). */
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

/** Write units of writing (or deleting) one item of `bytes`, plus `indexes` index copies of it. */
export function writeUnits(bytes: number, indexes = 0): number {
  const perCopy = Math.max(1, Math.ceil(bytes / 1024));
  return perCopy * (1 + indexes);
}

/** Read units of one Query (or Scan page) that read items of these sizes. */
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
