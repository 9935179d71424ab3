/**
 * Meters DynamoDB consumed capacity on an SDK client: a middleware asks every call for
 * `ReturnConsumedCapacity: TOTAL` and adds up what comes back, so a scenario can read the exact
 * write/read units an operation cost (snapshot before, delta after). It also counts calls per
 * command and units per table, so a figure can say where the units went.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface CapacityTotals {
  read: number;
  write: number;
  /** Calls per command name (e.g. `QueryCommand`). */
  calls: Record<string, number>;
  /** Units per table name, as `{ read, write }`. */
  tables: Record<string, { read: number; write: number }>;
  /** Items sent per command, for the batch and transaction commands (BatchWriteItem, TransactWriteItems). */
  items: Record<string, number>;
  /** Milliseconds spent waiting on each command (summed over calls, so concurrent calls add up). */
  ms: Record<string, number>;
}

export interface CapacityMeter {
  snapshot(): CapacityTotals;
  since(before: CapacityTotals): CapacityTotals;
}

type Consumed = { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number; TableName?: string };

const empty = (): CapacityTotals => ({ read: 0, write: 0, calls: {}, tables: {}, items: {}, ms: {} });

export function meterCapacity(client: DynamoDBClient): CapacityMeter {
  const totals = empty();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      if (!('ReturnConsumedCapacity' in input)) input.ReturnConsumedCapacity = 'TOTAL';
      const name = context.commandName ?? 'unknown';
      const sent = itemsIn(input);
      if (sent) totals.items[name] = (totals.items[name] ?? 0) + sent;
      const started = performance.now();
      const result = await next(args);
      totals.ms[name] = (totals.ms[name] ?? 0) + (performance.now() - started);
      const output = result.output as { ConsumedCapacity?: Consumed | Consumed[] };
      const consumed = output.ConsumedCapacity;
      for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
        let read = c.ReadCapacityUnits ?? 0;
        let write = c.WriteCapacityUnits ?? 0;
        // Local may only report CapacityUnits; attribute it by operation kind.
        if (c.ReadCapacityUnits === undefined && c.WriteCapacityUnits === undefined && c.CapacityUnits) {
          if (/Get|Query|Scan/.test(name)) read = c.CapacityUnits;
          else write = c.CapacityUnits;
        }
        totals.read += read;
        totals.write += write;
        const t = (totals.tables[c.TableName ?? '?'] ??= { read: 0, write: 0 });
        t.read += read;
        t.write += write;
      }
      totals.calls[name] = (totals.calls[name] ?? 0) + 1;
      return result;
    },
    { step: 'initialize', name: 'tickfeedCapacityMeter' },
  );
  return { snapshot: () => structuredClone(totals), since: (before) => diff(totals, before) };
}

export function diff(after: CapacityTotals, before: CapacityTotals): CapacityTotals {
  const out = empty();
  out.read = after.read - before.read;
  out.write = after.write - before.write;
  for (const [k, v] of Object.entries(after.calls)) if (v - (before.calls[k] ?? 0)) out.calls[k] = v - (before.calls[k] ?? 0);
  for (const [k, v] of Object.entries(after.ms)) if (v - (before.ms[k] ?? 0)) out.ms[k] = v - (before.ms[k] ?? 0);
  for (const [k, v] of Object.entries(after.items)) if (v - (before.items[k] ?? 0)) out.items[k] = v - (before.items[k] ?? 0);
  for (const [k, v] of Object.entries(after.tables)) {
    const b = before.tables[k] ?? { read: 0, write: 0 };
    if (v.read - b.read || v.write - b.write) out.tables[k] = { read: v.read - b.read, write: v.write - b.write };
  }
  return out;
}

/** Items a batch or transaction request carries (0 for single-item commands). */
function itemsIn(input: Record<string, unknown>): number {
  if (Array.isArray(input.TransactItems)) return input.TransactItems.length;
  const requests = input.RequestItems as Record<string, unknown[] | { Keys?: unknown[] }> | undefined;
  if (!requests) return 0;
  let n = 0;
  for (const r of Object.values(requests)) n += Array.isArray(r) ? r.length : (r.Keys?.length ?? 0);
  return n;
}

/**
 * Where a request's time went, from medians over samples of (total ms, meter delta): e.g.
 * "QueryCommand 18.2 ms, GetItemCommand 9.1 ms, outside DynamoDB 12.0 ms". Sequential calls
 * only (concurrent calls would add up to more than the wall time).
 */
export function timeSplit(samples: readonly { ms: number; spent: CapacityTotals }[]): string {
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.spent.ms)))];
  const parts = names.map((n) => [n.replace(/Command$/, ''), med(samples.map((s) => s.spent.ms[n] ?? 0))] as const);
  const outside = med(samples.map((s) => s.ms - Object.values(s.spent.ms).reduce((a, b) => a + b, 0)));
  return [...parts.filter(([, v]) => v > 0).map(([n, v]) => `${n} ${v.toFixed(1)} ms`), `outside DynamoDB ${outside.toFixed(1)} ms`].join(', ');
}
