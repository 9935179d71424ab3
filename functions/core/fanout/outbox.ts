/**
 * The feed table's stream is the fan-out outbox: once an original is in the table its stream
 * record exists, so "the author's write succeeded but the job was never enqueued" cannot happen —
 * a crash before the enqueue just means the stream delivers the record again.
 *
 *   INSERT of an original (NewImage has `author`)                  → fanout job
 *   MODIFY of an original that gains `deletedAt` (DELETE /activities) → retract job, which also
 *     removes the original once its copies are gone
 *   every REMOVE (a retention trim or TTL expiry of the author's own feed item, or the final
 *   removal of a retracted original), copies (no `author`), other MODIFYs → nothing: copies in
 *   followers' feeds follow their own feeds' retention; only DELETE /activities retracts them
 */
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { Job } from './jobs.js';

export function jobOfRecord(record: DynamoDBRecord): Job | undefined {
  const d = record.dynamodb;
  if (record.eventName === 'INSERT') {
    const image = d?.NewImage;
    const author = image?.author?.S;
    const rk = image?.rk?.N;
    if (!image || !author || !rk || image.pk?.S !== author) return undefined;
    const { author: _a, pk: _pk, ...rest } = image;
    return { kind: 'fanout', author, rk, image: rest as Record<string, AttributeValue> };
  }
  if (record.eventName === 'MODIFY') {
    const author = d?.NewImage?.author?.S;
    const rk = d?.NewImage?.rk?.N;
    if (!author || !rk || !d?.NewImage?.deletedAt || d.OldImage?.deletedAt) return undefined;
    return { kind: 'retract', author, rk, removeOriginal: true };
  }
  return undefined;
}
