/**
 * Creates the tables and queues of the shared definitions in the local servers. Idempotent, so a
 * restart on persistent data leaves existing tables (and their items) alone.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { queueList, type QueueId, tableList, type TableDef } from '../lib/defs/index.js';
import { localQueueName, localTableName } from './names.js';

export async function provisionTables(dynamo: DynamoDBClient): Promise<void> {
  for (const def of tableList) await ensureTable(dynamo, def);
}

async function ensureTable(dynamo: DynamoDBClient, def: TableDef): Promise<void> {
  const TableName = localTableName(def.id);
  const keys = [def.partitionKey, ...(def.sortKey ? [def.sortKey] : [])];
  const keySchema = [
    { AttributeName: def.partitionKey.name, KeyType: 'HASH' as const },
    ...(def.sortKey ? [{ AttributeName: def.sortKey.name, KeyType: 'RANGE' as const }] : []),
  ];
  try {
    await dynamo.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: keys.map((k) => ({ AttributeName: k.name, AttributeType: k.type })),
        KeySchema: keySchema,
        StreamSpecification: def.stream ? { StreamEnabled: true, StreamViewType: def.stream } : undefined,
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    return; // exists from an earlier run: keep it and its data
  }
  await waitUntilTableExists({ client: dynamo, maxWaitTime: 30 }, { TableName });
  if (def.ttlAttribute) {
    await dynamo.send(
      new UpdateTimeToLiveCommand({
        TableName,
        TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
      }),
    );
  }
}

/** Latest stream ARN of a local table. */
export async function streamArnOf(dynamo: DynamoDBClient, tableName: string): Promise<string> {
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
  if (!Table?.LatestStreamArn) throw new Error(`table ${tableName} has no stream`);
  return Table.LatestStreamArn;
}

/** Creates queues (dead-letter targets first) and returns their URLs and ARNs by id. */
export async function provisionQueues(sqs: SQSClient): Promise<Record<QueueId, { url: string; arn: string }>> {
  const out = {} as Record<QueueId, { url: string; arn: string }>;
  const ordered = [...queueList].sort((a, b) => Number(!!a.deadLetter) - Number(!!b.deadLetter));
  for (const def of ordered) {
    const dlq = def.deadLetter ? out[def.deadLetter.queue] : undefined;
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({
        QueueName: localQueueName(def.id),
        Attributes: {
          VisibilityTimeout: String(def.visibilityTimeoutSeconds),
          MessageRetentionPeriod: String(def.retentionSeconds),
          ...(def.deadLetter && dlq
            ? {
                RedrivePolicy: JSON.stringify({
                  deadLetterTargetArn: dlq.arn,
                  maxReceiveCount: def.deadLetter.maxReceiveCount,
                }),
              }
            : {}),
        },
      }),
    );
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
    out[def.id] = { url: QueueUrl!, arn: Attributes!.QueueArn! };
  }
  return out;
}
