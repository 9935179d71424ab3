/**
 * Converts DynamoDB Streams API records (SDK shapes) into the records Lambda delivers
 * (`DynamoDBRecord`): epoch-seconds timestamps, base64 binaries, `eventSourceARN`, and TTL
 * deletions as AWS shows them (REMOVE by the DynamoDB service principal). DynamoDB Local marks
 * TTL deletions with an event name the SDK does not know.
 */
import type { _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';

const KNOWN_EVENTS = new Set(['INSERT', 'MODIFY', 'REMOVE']);

export function toLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const d = record.dynamodb ?? {};
  const known = record.eventName && KNOWN_EVENTS.has(record.eventName);
  const ttlDelete = !known || record.userIdentity?.PrincipalId === 'dynamodb.amazonaws.com';
  return {
    eventID: record.eventID,
    eventName: (known ? record.eventName : 'REMOVE') as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? 'us-east-1',
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: d.ApproximateCreationDateTime
        ? Math.floor(new Date(d.ApproximateCreationDateTime).getTime() / 1000)
        : undefined,
      Keys: toJsonImage(d.Keys),
      NewImage: toJsonImage(d.NewImage),
      OldImage: toJsonImage(d.OldImage),
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType,
    },
    ...(ttlDelete ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
  } as DynamoDBRecord;
}

/**
 * Attribute values as Lambda's JSON has them: binaries base64, everything else unchanged — except
 * that the SDK's Streams deserializer turns an empty map `{"M":{}}` into `{}` (no type left), which
 * we restore, since an empty map is the only attribute value that can come back empty.
 */
function toJsonImage<T>(image: T): T {
  if (image === undefined) return image;
  const json = JSON.parse(
    JSON.stringify(image, (_key, value: unknown) =>
      value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value,
    ),
  ) as Record<string, unknown>;
  return restoreEmptyMaps(json) as T;
}

function restoreEmptyMaps(image: Record<string, unknown>): Record<string, unknown> {
  for (const [name, value] of Object.entries(image)) image[name] = restoreValue(value);
  return image;
}

function restoreValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const v = value as Record<string, unknown>;
  if (Object.keys(v).length === 0) return { M: {} };
  if (v.M && typeof v.M === 'object') restoreEmptyMaps(v.M as Record<string, unknown>);
  if (Array.isArray(v.L)) v.L = v.L.map(restoreValue);
  return v;
}
