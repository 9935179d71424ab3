/**
 * A foreignId marker, `foreign#<actor>` / `<foreignId>` in the graph table: makes a client's
 * idempotency key unique per actor. Written in one transaction with the original; names its rk.
 * Removed when the original is deleted, so the key can be posted again.
 */
import { rkOf } from './range-key.js';

export const foreignIdKey = (actor: string, foreignId: string) => ({ pk: `foreign#${actor}`, sk: foreignId });

export const foreignIdItem = (actor: string, foreignId: string, rk: bigint, id: string) => ({
  ...foreignIdKey(actor, foreignId),
  rk,
  id,
});

export const markedRk = (item: Record<string, unknown>): bigint => rkOf(item.rk);
