/**
 * Seeding writes: BatchWriteItem puts through a test's own client, on the platform's plumbing — the
 * one retry loop with its batch policy (unprocessed items and throttling retried, bounded, full
 * jitter) and its pool. Not functions' `batchWriteAll` itself: that writes through the handlers'
 * client, which points at whichever stack the worker's env named when it first loaded, and which
 * own-stack tests fit with fault-injecting middleware; seeding must reach the stack it names, as is.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isThrottling } from '../../functions/platform/dynamo/dynamo-errors.js';
import { forEachLimit } from '../../functions/platform/pool.js';
import { AGAIN, RETRY, retrying } from '../../functions/platform/retry.js';

/** BatchWriteItem's limit per call. */
const PER_CALL = 25;
const IN_FLIGHT = 4;

type Put = { PutRequest: { Item: Record<string, unknown> } };

/** Put every item into `table` through `doc`: 25 per call, 4 calls in flight. */
export async function writeItems(doc: DynamoDBDocumentClient, table: string, items: readonly Record<string, unknown>[]): Promise<void> {
  const chunks: Put[][] = [];
  for (let i = 0; i < items.length; i += PER_CALL) chunks.push(items.slice(i, i + PER_CALL).map((Item) => ({ PutRequest: { Item } })));
  await forEachLimit(chunks, IN_FLIGHT, async (chunk) => {
    let pending = chunk;
    await retrying(`seeding BatchWriteItem on ${table}`, RETRY.batch, async () => {
      try {
        const out = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        pending = (out.UnprocessedItems?.[table] ?? []) as Put[];
      } catch (error) {
        if (!isThrottling(error)) throw error;
      }
      return pending.length === 0 ? undefined : AGAIN;
    });
  });
}
