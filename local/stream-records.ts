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
    eventName: known ? record.eventName : 'REMOVE',
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? 'us-east-1',
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: d.ApproximateCreationDateTime ? Math.floor(new Date(d.ApproximateCreationDateTime).getTime() / 1000) : undefined,
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
 * we restore, since an empty map is the only attribute value that can come back empty. A copy made
 * in one walk: every record of the table passes here, for each stream consumer (a JSON round trip
 * cost about 20 µs a record).
 */
function toJsonImage<T>(image: T): T {
  return (image === undefined ? image : jsonMap(image as Record<string, unknown>)) as T;
}

function jsonMap(map: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name in map) out[name] = jsonValue(map[name] as Record<string, unknown>);
  return out;
}

const base64 = (bytes: unknown) => Buffer.from(bytes as Uint8Array).toString('base64');

function jsonValue(value: Record<string, unknown>): Record<string, unknown> {
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BS !== undefined) return { BS: (value.BS as unknown[]).map(base64) };
  if (value.M !== undefined) return { M: jsonMap(value.M as Record<string, unknown>) };
  if (value.L !== undefined) return { L: (value.L as Record<string, unknown>[]).map(jsonValue) };
  const out: Record<string, unknown> = {};
  let typed = false;
  for (const type in value) {
    const v = value[type];
    if (v === undefined) continue;
    out[type] = Array.isArray(v) ? [...(v as unknown[])] : v;
    typed = true;
  }
  return typed ? out : { M: {} };
}
