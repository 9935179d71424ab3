/**
 * `npm start` keeps its data: a restart on the same data directory finds the items, and the
 * fan-out jobs still queued at a clean stop are queued again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { generateLocalKeys } from '../../local/jwt.js';
import { type LocalStack, startLocalStack } from '../../local/stack.js';

const clients = (s: LocalStack) => {
  const config = { region: localRegion, credentials: localCredentials };
  return {
    doc: DynamoDBDocumentClient.from(new DynamoDBClient({ ...config, endpoint: s.dynamoEndpoint })),
    sqs: new SQSClient({ ...config, endpoint: s.sqsEndpoint }),
  };
};

describe('persistent local stack', () => {
  it('keeps items and queued jobs across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tickfeed-data-'));
    const keys = await generateLocalKeys();
    // No pollers: the queued job must still be there after the restart, not consumed.
    const first = await startLocalStack({ port: 0, keys, dataDir, pollers: false });
    try {
      const { doc, sqs } = clients(first);
      await doc.send(new PutCommand({ TableName: first.tableNames.graph, Item: { pk: 'kept', sk: 'item', n: 1 } }));
      await sqs.send(new SendMessageCommand({ QueueUrl: first.queueUrls.fanout, MessageBody: '{"kind":"kept"}' }));
    } finally {
      await first.stop();
    }

    const second = await startLocalStack({ port: 0, keys, dataDir, pollers: false });
    try {
      const { doc, sqs } = clients(second);
      const { Item } = await doc.send(new GetCommand({ TableName: second.tableNames.graph, Key: { pk: 'kept', sk: 'item' } }));
      expect(Item?.n).toBe(1);
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: second.queueUrls.fanout, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      expect(Messages.map((m) => m.Body)).toEqual(['{"kind":"kept"}']);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
