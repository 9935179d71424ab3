import { describe, expect, it } from 'vitest';
import { toLambdaRecord } from '../../local/stream-records.js';

const arn = 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/x';

describe('toLambdaRecord', () => {
  it('shapes a Streams API record like a Lambda event record', () => {
    const r = toLambdaRecord(
      {
        eventID: 'e1',
        eventName: 'INSERT',
        dynamodb: {
          ApproximateCreationDateTime: new Date('2026-11-22T10:00:00.900Z'),
          Keys: { pk: { S: 'a' }, rk: { N: '1' } },
          NewImage: { pk: { S: 'a' }, b: { B: new Uint8Array([1, 2, 3]) } },
          SequenceNumber: '100',
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      },
      arn,
    );
    expect(r.eventSourceARN).toBe(arn);
    expect(r.dynamodb?.ApproximateCreationDateTime).toBe(Date.parse('2026-11-22T10:00:00Z') / 1000);
    expect(r.dynamodb?.NewImage?.b).toEqual({ B: 'AQID' });
    expect(r.userIdentity).toBeUndefined();
  });

  it('turns an unknown event name (DynamoDB Local TTL delete) into a service REMOVE', () => {
    const r = toLambdaRecord({ eventID: 'e2', eventName: 'UNKNOWN_TO_SDK_VERSION' as 'REMOVE', dynamodb: { SequenceNumber: '1' } }, arn);
    expect(r.eventName).toBe('REMOVE');
    expect(r.userIdentity).toEqual({ type: 'Service', principalId: 'dynamodb.amazonaws.com' });
  });

  it('restores an empty map that the Streams deserializer left untyped', () => {
    const r = toLambdaRecord(
      {
        eventID: 'e3',
        eventName: 'INSERT',
        dynamodb: {
          SequenceNumber: '2',
          NewImage: { attributes: {} as never, nested: { M: { inner: {} as never, list: { L: [{} as never, { S: 'x' }] } } } },
        },
      },
      arn,
    );
    expect(r.dynamodb?.NewImage?.attributes).toEqual({ M: {} });
    expect(r.dynamodb?.NewImage?.nested).toEqual({ M: { inner: { M: {} }, list: { L: [{ M: {} }, { S: 'x' }] } } });
  });

  it('gives every attribute type as Lambda does, in a copy of the SDK record', () => {
    const image = {
      s: { S: 'x' },
      n: { N: '1.5' },
      ss: { SS: ['a', 'b'] },
      ns: { NS: ['1', '2'] },
      bs: { BS: [new Uint8Array([1]), new Uint8Array([255, 0])] },
      yes: { BOOL: false },
      nil: { NULL: true },
      list: { L: [{ B: new Uint8Array([1, 2, 3]) }, { M: { deep: { BS: [new Uint8Array([7])] } } }] },
    };
    const r = toLambdaRecord({ eventID: 'e4', eventName: 'MODIFY', dynamodb: { SequenceNumber: '3', OldImage: image } }, arn);
    const old = r.dynamodb!.OldImage!;
    expect(old).toEqual({
      s: { S: 'x' },
      n: { N: '1.5' },
      ss: { SS: ['a', 'b'] },
      ns: { NS: ['1', '2'] },
      bs: { BS: ['AQ==', '/wA='] },
      yes: { BOOL: false },
      nil: { NULL: true },
      list: { L: [{ B: 'AQID' }, { M: { deep: { BS: ['Bw=='] } } }] },
    });
    // As JSON would have it (Lambda's records are parsed JSON), and nothing shared with the input.
    expect(old).toEqual(JSON.parse(JSON.stringify(old)));
    old.ss!.SS!.push('c');
    expect(image.ss.SS).toEqual(['a', 'b']);
  });
});
