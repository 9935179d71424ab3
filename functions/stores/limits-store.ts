/**
 * The limits table: per-caller rate buckets (model/rate-bucket.ts). A take is one conditional
 * UpdateItem — 1 write unit, never a read: which of the two writes applies is guessed from what
 * the caller last saw, and a failed condition hands back the bucket as it stands
 * (ReturnValuesOnConditionCheckFailure), so the next try is informed.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RateClass } from '../../lib/defs/rate-limits.js';
import { bucketExpiresAt, type BucketSpec, rateBucketKey, spanUs } from '../model/rate-bucket.js';
import { doc } from '../platform/clients.js';
import { isConditionalCheckFailed } from '../platform/dynamo/dynamo-errors.js';
import { tableName } from '../platform/env.js';

/** Whether the take applied, and the bucket's `tat` after it (or as it stood: undefined = no bucket). */
export type TakeResult = { readonly ok: true; readonly tat: number } | { readonly ok: false; readonly tat: number | undefined };

const numberOf = (v: unknown): number | undefined => {
  if (v === undefined || v === null) return undefined;
  const n = Number(typeof v === 'object' && 'N' in v ? (v as { N: string }).N : String(v));
  return Number.isFinite(n) ? n : undefined;
};

async function take(userId: string, cls: RateClass, update: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key'>): Promise<TakeResult> {
  try {
    const out = await doc.send(
      new UpdateCommand({
        TableName: tableName('limits'),
        Key: rateBucketKey(userId, cls),
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        ...update,
      }),
    );
    return { ok: true, tat: numberOf(out.Attributes?.tat)! };
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    return { ok: false, tat: numberOf((error as { Item?: Record<string, unknown> }).Item?.tat) };
  }
}

/** Take `n` tokens from a bucket that is full (absent, or its tat already past): tat = now + n · interval. */
export const takeFromFull = (userId: string, cls: RateClass, n: number, now: number, spec: BucketSpec): Promise<TakeResult> =>
  take(userId, cls, {
    UpdateExpression: 'SET tat = :tat, expiresAt = :x',
    ConditionExpression: 'attribute_not_exists(tat) OR tat < :now',
    ExpressionAttributeValues: { ':tat': now + n * spec.intervalUs, ':now': now, ':x': bucketExpiresAt(now, spec) },
  });

/** Take `n` tokens from a bucket in use (tat ≥ now) that holds them: tat += n · interval, while tat ≤ now + span − n · interval. */
export const takeFromPartial = (userId: string, cls: RateClass, n: number, now: number, spec: BucketSpec): Promise<TakeResult> =>
  take(userId, cls, {
    UpdateExpression: 'SET tat = tat + :add, expiresAt = :x',
    ConditionExpression: 'tat BETWEEN :now AND :max',
    ExpressionAttributeValues: { ':add': n * spec.intervalUs, ':now': now, ':max': now + spanUs(spec) - n * spec.intervalUs, ':x': bucketExpiresAt(now, spec) },
  });
