/**
 * Meters DynamoDB consumed capacity on an SDK client: a middleware asks every call for
 * `ReturnConsumedCapacity: TOTAL` and adds up what comes back, so a scenario can read the exact
 * write/read units an operation cost (snapshot before, delta after).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface CapacityTotals {
  read: number;
  write: number;
  calls: Record<string, number>;
}

export interface CapacityMeter {
  snapshot(): CapacityTotals;
  since(before: CapacityTotals): CapacityTotals;
}

type Consumed = { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number; TableName?: string };

export function meterCapacity(client: DynamoDBClient): CapacityMeter {
  const totals: CapacityTotals = { read: 0, write: 0, calls: {} };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      if (!('ReturnConsumedCapacity' in input)) input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: Consumed | Consumed[] };
      const consumed = output.ConsumedCapacity;
      for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
        totals.read += c.ReadCapacityUnits ?? 0;
        totals.write += c.WriteCapacityUnits ?? 0;
        // Local may only report CapacityUnits; attribute it by operation kind.
        if (c.ReadCapacityUnits === undefined && c.WriteCapacityUnits === undefined && c.CapacityUnits) {
          if (/Get|Query|Scan/.test(context.commandName ?? '')) totals.read += c.CapacityUnits;
          else totals.write += c.CapacityUnits;
        }
      }
      const name = context.commandName ?? 'unknown';
      totals.calls[name] = (totals.calls[name] ?? 0) + 1;
      return result;
    },
    { step: 'initialize', name: 'tickfeedCapacityMeter' },
  );
  return {
    snapshot: () => ({ read: totals.read, write: totals.write, calls: { ...totals.calls } }),
    since: (b) => ({
      read: totals.read - b.read,
      write: totals.write - b.write,
      calls: Object.fromEntries(Object.entries(totals.calls).map(([k, v]) => [k, v - (b.calls[k] ?? 0)])),
    }),
  };
}
