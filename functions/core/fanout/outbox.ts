/**
 * The feed table's stream is the fan-out outbox: once an original is in the table its stream
 * record exists, so "the author's write succeeded but the job was never enqueued" cannot happen —
 * a crash before the enqueue just means the stream delivers the record again.
 *
 *   INSERT of an original (NewImage has `author`)            → fanout job
 *   REMOVE of an original by a user (not a TTL deletion)     → retract job
 *   copies (no `author`), MODIFY, TTL deletions, other items → nothing
 */
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { Job } from './jobs.js';

const TTL_PRINCIPAL = 'dynamodb.amazonaws.com';

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
  if (record.eventName === 'REMOVE') {
    if (record.userIdentity?.principalId === TTL_PRINCIPAL) return undefined; // expiry: copies expire too
    const author = d?.OldImage?.author?.S;
    const rk = d?.OldImage?.rk?.N ?? d?.Keys?.rk?.N;
    if (!author || !rk) return undefined;
    return { kind: 'retract', author, rk };
  }
  return undefined;
}
