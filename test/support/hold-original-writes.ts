/**
 * Stops the next write that names an activity's original or history (a middleware on the handlers'
 * own DynamoDB client, for stacks whose handlers run in the test process): held at a gate, so a
 * test can let another edit or a DELETE pass first, or failed once, as a crash or a network error
 * between two writes would leave it. A write "names" them when its request carries the original's
 * partition (`t#author`) or the history's (`v#activityId`): PutItem, UpdateItem, DeleteItem and
 * TransactWriteItems alike, so the hold catches a plain write and a transaction the same way.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { historyPartition } from '../../functions/model/activity-history.js';
import { parseActivityId } from '../../functions/model/activity-id.js';
import { timelinePartition } from '../../functions/model/timeline-item.js';

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand']);

type Stop = { marks: readonly string[]; gate?: Promise<void>; reached: () => void; fail: boolean };
let stop: Stop | undefined;

const text = (input: unknown) => JSON.stringify(input, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));

/** Install once per client. */
export function installOriginalWriteStop(dynamo: DynamoDBClient): void {
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const s = stop;
      if (s && WRITES.has(context.commandName ?? '')) {
        const sent = text(args.input);
        if (s.marks.some((m) => sent.includes(`"${m}"`))) {
          stop = undefined; // the next one only
          s.reached();
          if (s.fail) throw new Error('injected: the write of the original failed');
          await s.gate;
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'stopOriginalWrite' },
  );
}

/** Which writes to stop: those naming the original only, or the original or its history. */
export type Marks = 'original' | 'original or history';

function marksOf(id: string, which: Marks): string[] {
  const { actor } = parseActivityId(id)!;
  return which === 'original' ? [timelinePartition(actor)] : [timelinePartition(actor), historyPartition(id)];
}

/** Fail the next such write of activity `id` (once): `reached` resolves when it was refused. */
export function failNextWrite(id: string, which: Marks) {
  let reached!: () => void;
  const done = new Promise<void>((r) => (reached = r));
  stop = { marks: marksOf(id, which), reached, fail: true };
  return { reached: done };
}

/** Hold the next such write of activity `id`: `atGate` resolves when it arrives, `open()` sends it. */
export function holdNextWrite(id: string, which: Marks) {
  let open!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const atGate = new Promise<void>((r) => (reached = r));
  stop = { marks: marksOf(id, which), gate, reached, fail: false };
  return { atGate, open };
}
