/**
 * Holds the fan-out worker's copy writes of one author at a gate (a middleware on the handlers' own
 * DynamoDB client, for stacks whose handlers run in the test process): the worker has read its
 * follower page, its writes wait — so a test can change the world in between and then let them go.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';

let held: { actor: string; gate: Promise<void>; reached: () => void; passes: number } | undefined;

/** Install once per client. Copy writes (BatchWriteItem puts into feeds other than the poster's) of the held actor wait. */
export function installCopyHold(dynamo: DynamoDBClient): void {
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const d = held;
      if (d && context.commandName === 'BatchWriteItemCommand') {
        type Value = string | { S?: string } | undefined;
        const requests =
          Object.values((args.input as { RequestItems: Record<string, { PutRequest?: { Item: Record<string, Value> } }[]> }).RequestItems)[0] ?? [];
        const item = requests[0]?.PutRequest?.Item;
        const text = (v: Value) => (typeof v === 'string' ? v : v?.S); // plain or marshalled, depending on the step
        if (item && text(item.actor) === d.actor && text(item.pk) !== homeFeedPartition(d.actor) && d.passes-- <= 0) {
          d.reached();
          await d.gate; // the page's followers are read; its writes have not been sent yet
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'holdCopyWrites' },
  );
}

/**
 * Hold `actor`'s copy writes: `atGate` resolves when the worker reaches it, `open()` lets it go.
 * `after`: that many copy writes go through first (the fan-out is under way when it stops).
 */
export function holdCopiesOf(actor: string, opts: { after?: number } = {}) {
  let open!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const atGate = new Promise<void>((r) => (reached = r));
  held = { actor, gate, reached, passes: opts.after ?? 0 };
  return {
    atGate,
    open: () => {
      held = undefined;
      open();
    },
  };
}
