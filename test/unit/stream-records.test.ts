import { describe, expect, it } from 'vitest';
import { toLambdaRecord } from '../../local/stream-records.js';

const arn = 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/x';

describe('toLambdaRecord', () => {
  it('shapes a Streams API record (its JSON) like a Lambda event record', () => {
    const r = toLambdaRecord(
      {
        eventID: 'e1',
        eventName: 'INSERT',
        dynamodb: {
          ApproximateCreationDateTime: Date.parse('2026-11-22T10:00:00.900Z') / 1000,
          Keys: { pk: { S: 'a' }, rk: { N: '1' } },
          NewImage: { pk: { S: 'a' }, b: { B: 'AQID' }, empty: { M: {} } },
          SequenceNumber: '100',
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      },
      arn,
    );
    expect(r.eventSourceARN).toBe(arn);
    expect(r.eventSource).toBe('aws:dynamodb');
    // Lambda's timestamps are whole seconds.
    expect(r.dynamodb?.ApproximateCreationDateTime).toBe(Date.parse('2026-11-22T10:00:00Z') / 1000);
    expect(r.dynamodb?.NewImage).toEqual({ pk: { S: 'a' }, b: { B: 'AQID' }, empty: { M: {} } });
    expect(r.userIdentity).toBeUndefined();
  });

  it("turns an event name of DynamoDB Local's own (its TTL delete) into a service REMOVE", () => {
    const r = toLambdaRecord({ eventID: 'e2', eventName: 'TTL_DELETE', dynamodb: { SequenceNumber: '1' } }, arn);
    expect(r.eventName).toBe('REMOVE');
    expect(r.userIdentity).toEqual({ type: 'Service', principalId: 'dynamodb.amazonaws.com' });
  });

  it('keeps a REMOVE by the DynamoDB service principal as a TTL delete', () => {
    const r = toLambdaRecord(
      { eventID: 'e3', eventName: 'REMOVE', userIdentity: { PrincipalId: 'dynamodb.amazonaws.com', Type: 'Service' }, dynamodb: { SequenceNumber: '2' } },
      arn,
    );
    expect(r.eventName).toBe('REMOVE');
    expect(r.userIdentity).toEqual({ type: 'Service', principalId: 'dynamodb.amazonaws.com' });
  });
});
