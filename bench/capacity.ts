/**
 * Meters DynamoDB consumed capacity on an SDK client: a middleware asks every call for
 * `ReturnConsumedCapacity: TOTAL` and adds up units, calls, items and time per command and table,
 * and with a classifier per kind of call ("trim key scan", …). `measure` (or snapshot and since).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { median, sum } from './stats.js';

export interface TagTotals {
  calls: number;
  read: number;
  write: number;
  /** Items sent (batch and transaction requests). */
  items: number;
  /** Items read (ScannedCount of a Query/Scan, 1 per item a Get/BatchGet found). */
  scanned: number;
}

export interface CapacityTotals {
  read: number;
  write: number;
  /** Calls per command name (e.g. `QueryCommand`). */
  calls: Record<string, number>;
  tables: Record<string, { read: number; write: number }>;
  /** Items sent per batch or transaction command. */
  items: Record<string, number>;
  /** Milliseconds waiting on each command (concurrent calls add up). */
  ms: Record<string, number>;
  /** Per kind of call, when the meter has a classifier. */
  tags: Record<string, TagTotals>;
  /** Most calls of each command in flight at once since the last resetPeaks (not a delta). */
  peaks: Record<string, number>;
}

export interface CapacityMeter {
  snapshot(): CapacityTotals;
  since(before: CapacityTotals): CapacityTotals;
  /** What the client spent while `fn` ran. */
  measure<T>(fn: () => Promise<T>): Promise<{ value: T; spent: CapacityTotals }>;
  resetPeaks(): void;
  /** Runs `fn` with the meter out of the way (no ReturnConsumedCapacity, no bookkeeping): for timings. */
  unmetered<T>(fn: () => Promise<T>): Promise<T>;
}

/** Names the kind of a call from its command name and input (document or attribute-value form). */
export type CallClassifier = (commandName: string, input: Record<string, unknown>) => string | undefined;

type Consumed = { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number; TableName?: string };

const empty = (): CapacityTotals => ({ read: 0, write: 0, calls: {}, tables: {}, items: {}, ms: {}, tags: {}, peaks: {} });
const emptyTag = (): TagTotals => ({ calls: 0, read: 0, write: 0, items: 0, scanned: 0 });
const add = (into: Record<string, number>, key: string, n: number) => (into[key] = (into[key] ?? 0) + n);

export function meterCapacity(client: DynamoDBClient, classify?: CallClassifier): CapacityMeter {
  const totals = empty();
  const inFlight: Record<string, number> = {};
  let paused = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (paused) return next(args);
      const input = args.input as Record<string, unknown>;
      if (!('ReturnConsumedCapacity' in input)) input.ReturnConsumedCapacity = 'TOTAL';
      const name = context.commandName ?? 'unknown';
      const tag = classify?.(name, input);
      const sent = itemsIn(input);
      if (sent) add(totals.items, name, sent);
      totals.peaks[name] = Math.max(totals.peaks[name] ?? 0, add(inFlight, name, 1));
      const started = performance.now();
      let result;
      try {
        result = await next(args);
      } finally {
        add(inFlight, name, -1);
      }
      add(totals.ms, name, performance.now() - started);
      const output = result.output as unknown as { ConsumedCapacity?: Consumed | Consumed[] } & Record<string, unknown>;
      let callRead = 0;
      let callWrite = 0;
      for (const c of [output.ConsumedCapacity ?? []].flat()) {
        let read = c.ReadCapacityUnits ?? 0;
        let write = c.WriteCapacityUnits ?? 0;
        // Local may only report CapacityUnits: attributed by the operation's kind.
        if (c.ReadCapacityUnits === undefined && c.WriteCapacityUnits === undefined && c.CapacityUnits) {
          if (/Get|Query|Scan/.test(name)) read = c.CapacityUnits;
          else write = c.CapacityUnits;
        }
        callRead += read;
        callWrite += write;
        const t = (totals.tables[c.TableName ?? '?'] ??= { read: 0, write: 0 });
        t.read += read;
        t.write += write;
      }
      totals.read += callRead;
      totals.write += callWrite;
      add(totals.calls, name, 1);
      if (tag) addTag((totals.tags[tag] ??= emptyTag()), { calls: 1, read: callRead, write: callWrite, items: sent, scanned: itemsRead(output) });
      return result;
    },
    { step: 'initialize', name: 'tickfeedCapacityMeter' },
  );
  const snapshot = () => structuredClone(totals);
  const since = (before: CapacityTotals) => diff(totals, before);
  return {
    snapshot,
    since,
    measure: async (fn) => {
      const before = snapshot();
      const value = await fn();
      return { value, spent: since(before) };
    },
    unmetered: async (fn) => {
      paused += 1;
      try {
        return await fn();
      } finally {
        paused -= 1;
      }
    },
    resetPeaks: () => {
      for (const k of Object.keys(totals.peaks)) delete totals.peaks[k];
    },
  };
}

function diff(after: CapacityTotals, before: CapacityTotals): CapacityTotals {
  const out = empty();
  out.read = after.read - before.read;
  out.write = after.write - before.write;
  for (const field of ['calls', 'ms', 'items'] as const) {
    for (const [k, v] of Object.entries(after[field])) if (v - (before[field][k] ?? 0)) out[field][k] = v - (before[field][k] ?? 0);
  }
  for (const [k, v] of Object.entries(after.tables)) {
    const b = before.tables[k] ?? { read: 0, write: 0 };
    if (v.read - b.read || v.write - b.write) out.tables[k] = { read: v.read - b.read, write: v.write - b.write };
  }
  for (const [k, v] of Object.entries(after.tags)) {
    const b = before.tags[k] ?? emptyTag();
    if (v.calls - b.calls)
      out.tags[k] = { calls: v.calls - b.calls, read: v.read - b.read, write: v.write - b.write, items: v.items - b.items, scanned: v.scanned - b.scanned };
  }
  out.peaks = { ...after.peaks };
  return out;
}

function addTag(into: TagTotals, from: TagTotals): void {
  for (const k of ['calls', 'read', 'write', 'items', 'scanned'] as const) into[k] += from[k];
}

/** The totals of the tags whose names pass `pick`. */
export function sumTags(t: CapacityTotals, pick: (tag: string) => boolean): TagTotals {
  const out = emptyTag();
  for (const [k, v] of Object.entries(t.tags)) if (pick(k)) addTag(out, v);
  return out;
}

/** DynamoDB calls in all. */
export const callCount = (t: CapacityTotals) => sum(Object.values(t.calls));

/**
 * Item writes the calls sent (a transaction's condition checks included). With `transactionWeight`
 * 2, the write units the pricing rules charge when every item is under 1 KB (DynamoDB Local
 * undercounts transactions).
 */
export function itemWrites(t: CapacityTotals, transactionWeight = 1): number {
  const { items, calls } = t;
  return (
    transactionWeight * (items.TransactWriteItemsCommand ?? 0) +
    (items.BatchWriteItemCommand ?? 0) +
    (calls.PutItemCommand ?? 0) +
    (calls.UpdateItemCommand ?? 0) +
    (calls.DeleteItemCommand ?? 0)
  );
}

/** Items a batch or transaction request carries (0 for single-item commands). */
function itemsIn(input: Record<string, unknown>): number {
  if (Array.isArray(input.TransactItems)) return input.TransactItems.length;
  const requests = (input.RequestItems ?? {}) as Record<string, unknown[] | { Keys?: unknown[] }>;
  return sum(Object.values(requests).map((r) => (Array.isArray(r) ? r.length : (r.Keys?.length ?? 0))));
}

/** Items a read call read: ScannedCount (Query/Scan), the item of a Get, the responses of a BatchGet. */
function itemsRead(output: Record<string, unknown>): number {
  if (typeof output.ScannedCount === 'number') return output.ScannedCount;
  if ('Item' in output) return output.Item ? 1 : 0;
  const responses = output.Responses as Record<string, unknown[]> | undefined;
  return responses && !Array.isArray(responses) ? sum(Object.values(responses).map((r) => (Array.isArray(r) ? r.length : 0))) : 0;
}

/** Where a request's time went, from medians over (total ms, meter delta) samples: "Query 18.2 ms, outside DynamoDB 12.0 ms". Sequential calls only. */
export function timeSplit(samples: readonly { ms: number; spent: CapacityTotals }[]): string {
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.spent.ms)))];
  const parts = names.map((n) => [n.replace(/Command$/, ''), median(samples.map((s) => s.spent.ms[n] ?? 0))] as const);
  const outside = median(samples.map((s) => s.ms - sum(Object.values(s.spent.ms))));
  return [...parts.filter(([, v]) => v > 0).map(([n, v]) => `${n} ${v.toFixed(1)} ms`), `outside DynamoDB ${outside.toFixed(1)} ms`].join(', ');
}
