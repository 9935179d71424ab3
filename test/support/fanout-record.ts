/** The fanout job's SQS record the outbox would send for an author's newest original, for calling the fan-out worker in-process on a stack without pollers. */
import { type DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { timelinePartition } from '../../functions/model/timeline-item.js';
import { uid } from './ids.js';

export async function fanoutRecord(raw: DynamoDBClient, feedTable: string, author: string, receiveCount = 1): Promise<SQSRecord> {
  const { Items } = await raw.send(
    new QueryCommand({
      TableName: feedTable,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: timelinePartition(author) } },
      Limit: 1,
    }),
  );
  const { pk: _pk, expiresAt: _e, ...image } = Items![0]!;
  return {
    messageId: uid('m'),
    body: JSON.stringify({ kind: 'fanout', author, rk: image.rk!.N, image }),
    attributes: { SentTimestamp: String(Date.now()), ApproximateReceiveCount: String(receiveCount) },
  } as unknown as SQSRecord;
}
