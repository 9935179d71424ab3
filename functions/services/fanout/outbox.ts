/**
 * The feed table's stream is the fan-out outbox: once an original is in the table its stream
 * record exists, so "the author's write succeeded but the job was never enqueued" cannot happen —
 * a crash before the enqueue just means the stream delivers the record again.
 *
 *   INSERT of an original (a `t#` timeline item)                      → fanout job
 *   MODIFY of an original that gains `deletedAt` (DELETE /activities) → retract job
 *   everything else → nothing: home-feed copies and heads (`f#`), trims and TTL removals (a
 *   copy follows its own feed's retention; only DELETE /activities retracts copies), the
 *   tombstone's own expiry
 */
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { authorOfTimelinePk } from '../../model/timeline-item.js';
import type { Job } from './jobs.js';

export function jobOfRecord(record: DynamoDBRecord): Job | undefined {
  const d = record.dynamodb;
  if (record.eventName === 'INSERT') {
    const image = d?.NewImage;
    const author = authorOfTimelinePk(image?.pk?.S);
    const rk = image?.rk?.N;
    if (!image || !author || !rk) return undefined;
    const { pk: _pk, expiresAt: _e, ...rest } = image;
    return { kind: 'fanout', author, rk, image: rest as Record<string, AttributeValue> };
  }
  if (record.eventName === 'MODIFY') {
    const author = authorOfTimelinePk(d?.NewImage?.pk?.S);
    const rk = d?.NewImage?.rk?.N;
    if (!author || !rk || !d?.NewImage?.deletedAt || d.OldImage?.deletedAt) return undefined;
    return { kind: 'retract', author, rk };
  }
  return undefined;
}
