/**
 * BatchWriteItem for many items: 25 per call, a few calls in flight, `UnprocessedItems` and
 * throttling retried with full-jitter exponential backoff, bounded — then `UnprocessedWritesError`,
 * so the caller's message comes back instead of being acknowledged with writes missing.
 * Every write is a put or delete of a deterministic key, so a retry (of a call or of the whole job)
 * only rewrites what is already there.
 * Items are plain values (marshalled by the document client), or — `marshalled: true` — attribute
 * maps built once and reused, which spares the fan-out marshalling the same post per follower.
 */
import { BatchWriteItemCommand, type WriteRequest as MarshalledRequest } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { doc, dynamo } from '../clients.js';
import { forEachLimit, sleep } from '../pool.js';
import { isThrottling, UnprocessedWritesError } from './errors.js';

export type WriteRequest =
  | { PutRequest: { Item: Record<string, unknown> } }
  | { DeleteRequest: { Key: Record<string, unknown> } };

export interface BatchWriteOptions {
  /** BatchWriteItem calls in flight (default 8: a fan-out page keeps DynamoDB busy without a pool per job). */
  readonly concurrency?: number;
  /** Attempts per 25-item call, the first included. */
  readonly maxAttempts?: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** The items are attribute maps already (`{ S: … }`, `{ N: … }`): sent with the low-level client. */
  readonly marshalled?: boolean;
}

export const BATCH_SIZE = 25;

export async function batchWriteAll(
  table: string,
  requests: readonly WriteRequest[],
  opts: BatchWriteOptions = {},
): Promise<void> {
  const chunks: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_SIZE) chunks.push(requests.slice(i, i + BATCH_SIZE));
  await forEachLimit(chunks, opts.concurrency ?? 8, (chunk) => writeChunk(table, chunk, opts));
}

async function writeChunk(table: string, chunk: WriteRequest[], opts: BatchWriteOptions): Promise<void> {
  const maxAttempts = opts.maxAttempts ?? 8;
  const base = opts.baseDelayMs ?? 25;
  const cap = opts.maxDelayMs ?? 2000;
  let pending = chunk;
  let lastError: unknown;
  for (let attempt = 1; ; attempt++) {
    try {
      const out = opts.marshalled
        ? await dynamo.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending as MarshalledRequest[] } }))
        : await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (out.UnprocessedItems?.[table] ?? []) as WriteRequest[];
      if (pending.length === 0) return;
    } catch (error) {
      if (!isThrottling(error)) throw error;
      lastError = error; // the whole call was refused: retry all of it
    }
    if (attempt >= maxAttempts) throw new UnprocessedWritesError(table, pending.length, attempt, { cause: lastError });
    await sleep(Math.random() * Math.min(cap, base * 2 ** attempt)); // full jitter
  }
}

