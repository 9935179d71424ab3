/**
 * BatchGetItem for many keys: 100 per call, `UnprocessedKeys` retried with full-jitter backoff,
 * bounded — then an error, so the caller's job comes back rather than acting on a partial read.
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { doc } from '../clients.js';
import { backoff } from '../pool.js';
import type { Item } from './query.js';

const MAX_ATTEMPTS = 8;

export async function batchGetAll(table: string, keys: readonly Item[], opts: { consistent?: boolean } = {}): Promise<Item[]> {
  const found: Item[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Item[] = keys.slice(i, i + 100);
    for (let attempt = 1; pending.length; attempt++) {
      if (attempt > MAX_ATTEMPTS) throw new Error(`BatchGetItem on ${table}: ${pending.length} keys still unprocessed`);
      if (attempt > 1) await backoff(attempt, 25, 2000);
      const out = await doc.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: opts.consistent } } }));
      found.push(...((out.Responses?.[table] ?? []) as Item[]));
      pending = (out.UnprocessedKeys?.[table]?.Keys ?? []) as Item[];
    }
  }
  return found;
}
