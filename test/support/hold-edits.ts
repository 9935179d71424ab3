/**
 * Holds the edit job's copy updates of one post at a gate (a middleware on the handlers' own
 * DynamoDB client, for stacks whose handlers run in the test process): the job has read the
 * original and its follower page, its UpdateItem calls wait — so a test can delete the post or
 * edit it again in between, then let them go.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { feedPartitionPrefix } from '../../lib/defs/key-prefixes.js';

let held: { rk: string; gate: Promise<void>; reached: () => void } | undefined;

/** Install once per client. UpdateItem calls on home-feed copies at the held rk wait. */
export function installEditHold(dynamo: DynamoDBClient): void {
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const d = held;
      if (d && context.commandName === 'UpdateItemCommand') {
        const key = (args.input as { Key?: { pk?: { S?: string }; rk?: { N?: string } } }).Key;
        if (key?.pk?.S?.startsWith(feedPartitionPrefix.homeFeed) && key.rk?.N === d.rk) {
          d.reached();
          await d.gate;
        }
      }
      return next(args);
    },
    { step: 'finalizeRequest', name: 'holdEditUpdates' },
  );
}

/** Hold the copy updates at range key `rk`: `atGate` resolves when the first arrives, `open()` lets them go. */
export function holdEditsAt(rk: string) {
  let open!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const atGate = new Promise<void>((r) => (reached = r));
  held = { rk, gate, reached };
  return {
    atGate,
    open: () => {
      held = undefined;
      open();
    },
  };
}
