/**
 * BatchGetItem for many keys: 100 per call, `UnprocessedKeys` retried by the one retry loop
 * (platform/retry.ts) — then RetriesExhaustedError, so the caller's job comes back rather than
 * acting on a partial read (an HTTP caller gets a 503). A key asked twice is asked once (BatchGetItem
 * refuses a request that names one twice; a batch of jobs can ask for the same item).
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { doc } from '../clients.js';
import { AGAIN, RETRY, retrying } from '../retry.js';
import type { Item } from './query.js';
import { forEachLimit } from '../pool.js';

/** Chunks of 100 keys read at once (a notify batch can ask for thousands of keys). */
const CHUNKS_IN_FLIGHT = 4;

/** A key's identity, whatever the order of its attributes or the type of its values (a bigint rk reads as a string). */
const keyId = (k: Item) => JSON.stringify(Object.keys(k).sort().map((name) => [name, String(k[name])]));

export async function batchGetAll(table: string, keys: readonly Item[], opts: { consistent?: boolean } = {}): Promise<Item[]> {
  const found: Item[] = [];
  const unique = [...new Map(keys.map((k) => [keyId(k), k])).values()];
  const chunks = Array.from({ length: Math.ceil(unique.length / 100) }, (_, c) => unique.slice(c * 100, c * 100 + 100));
  await forEachLimit(chunks, CHUNKS_IN_FLIGHT, async (chunk) => {
    let pending: Item[] = chunk;
    await retrying(`BatchGetItem on ${table}`, RETRY.batch, async () => {
      const out = await doc.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: opts.consistent } } }));
      found.push(...((out.Responses?.[table] ?? []) as Item[]));
      pending = (out.UnprocessedKeys?.[table]?.Keys ?? []) as Item[];
      return pending.length === 0 ? undefined : AGAIN;
    });
  });
  return found;
}
