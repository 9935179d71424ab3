/**
 * BatchGetItem for many keys: 100 per call, `UnprocessedKeys` retried by the one retry loop
 * (platform/retry.ts) — then RetriesExhaustedError, so the caller's job comes back rather than
 * acting on a partial read (an HTTP caller gets a 503). A key asked twice is asked once (BatchGetItem
 * refuses a request that names one twice; a batch of jobs can ask for the same item). Several tables
 * share a call's 100 keys (batchGetAcross).
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { doc } from '../clients.js';
import { AGAIN, RETRY, retrying } from '../retry.js';
import type { Item } from './query.js';
import { forEachLimit } from '../pool.js';

/** Chunks of 100 keys read at once (a notify batch can ask for thousands of keys). */
const CHUNKS_IN_FLIGHT = 4;

/** A key's identity, whatever the order of its attributes or the type of its values (a bigint rk reads as a string). */
const keyId = (k: Item) =>
  JSON.stringify(
    Object.keys(k)
      .sort()
      .map((name) => [name, String(k[name])]),
  );

export async function batchGetAll(table: string, keys: readonly Item[], opts: { consistent?: boolean } = {}): Promise<Item[]> {
  return (await batchGetAcross({ [table]: keys }, opts))[table] ?? [];
}

/**
 * batchGetAll over several tables at once: a call carries up to 100 keys whatever their tables, so
 * a read that needs a few items of another table (a fan-out's authors' profiles beside its
 * originals) costs no call of its own. Answers by table; a table with no keys is absent.
 */
export async function batchGetAcross(wanted: Readonly<Record<string, readonly Item[]>>, opts: { consistent?: boolean } = {}): Promise<Record<string, Item[]>> {
  const found: Record<string, Item[]> = {};
  const unique = Object.entries(wanted).flatMap(([table, keys]) => [...new Map(keys.map((k) => [keyId(k), k])).values()].map((key) => ({ table, key })));
  const chunks = Array.from({ length: Math.ceil(unique.length / 100) }, (_, c) => unique.slice(c * 100, c * 100 + 100));
  await forEachLimit(chunks, CHUNKS_IN_FLIGHT, async (chunk) => {
    let pending = byTable(chunk);
    await retrying(`BatchGetItem on ${Object.keys(pending).join(', ')}`, RETRY.batch, async () => {
      const RequestItems = Object.fromEntries(Object.entries(pending).map(([table, Keys]) => [table, { Keys, ConsistentRead: opts.consistent }]));
      const out = await doc.send(new BatchGetCommand({ RequestItems }));
      for (const [table, items] of Object.entries(out.Responses ?? {})) (found[table] ??= []).push(...(items as Item[]));
      pending = Object.fromEntries(Object.entries(out.UnprocessedKeys ?? {}).flatMap(([table, u]) => (u.Keys?.length ? [[table, u.Keys as Item[]]] : [])));
      return Object.keys(pending).length === 0 ? undefined : AGAIN;
    });
  });
  return found;
}

const byTable = (chunk: readonly { table: string; key: Item }[]): Record<string, Item[]> => {
  const out: Record<string, Item[]> = {};
  for (const { table, key } of chunk) (out[table] ??= []).push(key);
  return out;
};
