/**
 * BatchWriteItem for many items: 25 per call, a few calls in flight, `UnprocessedItems` and
 * throttling retried by the one retry loop (platform/retry.ts: bounded, full jitter) — then `UnprocessedWritesError`,
 * so the caller's message comes back instead of being acknowledged with writes missing.
 * Every write is a put or delete of a deterministic key, so a retry (of a call or of the whole job)
 * only rewrites what is already there.
 * Items are plain values (marshalled by the document client), or — `marshalled: true` — attribute
 * maps built once and reused, which spares the fan-out marshalling the same post per follower.
 */
import { BatchWriteItemCommand, type WriteRequest as MarshalledRequest } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { doc, dynamo } from '../clients.js';
import { forEachLimit } from '../pool.js';
import { AGAIN, RETRY, RetriesExhaustedError, retrying } from '../retry.js';
import { isThrottling, UnprocessedWritesError } from './dynamo-errors.js';

export type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

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

export async function batchWriteAll(table: string, requests: readonly WriteRequest[], opts: BatchWriteOptions = {}): Promise<void> {
  const chunks: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_SIZE) chunks.push(requests.slice(i, i + BATCH_SIZE));
  await forEachLimit(chunks, opts.concurrency ?? 8, (chunk) => writeChunk(table, chunk, opts));
}

async function writeChunk(table: string, chunk: WriteRequest[], opts: BatchWriteOptions): Promise<void> {
  const policy = {
    attempts: opts.maxAttempts ?? RETRY.batch.attempts,
    baseMs: opts.baseDelayMs ?? RETRY.batch.baseMs,
    capMs: opts.maxDelayMs ?? RETRY.batch.capMs,
  };
  let pending = chunk;
  let lastError: unknown;
  try {
    await retrying(`BatchWriteItem on ${table}`, policy, async () => {
      try {
        const out = opts.marshalled
          ? await dynamo.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending as MarshalledRequest[] } }))
          : await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        pending = (out.UnprocessedItems?.[table] ?? []) as WriteRequest[];
        return pending.length === 0 ? undefined : AGAIN;
      } catch (error) {
        if (!isThrottling(error)) throw error;
        lastError = error; // the whole call was refused: retry all of it
        return AGAIN;
      }
    });
  } catch (error) {
    if (error instanceof RetriesExhaustedError) throw new UnprocessedWritesError(table, pending.length, error.attempts, { cause: lastError });
    throw error;
  }
}
