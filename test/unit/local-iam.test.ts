/**
 * The local stand-in for the functions' IAM roles (local/iam.ts): a call a function's definition
 * does not grant fails with AccessDeniedException, as in AWS.
 */
import { describe, expect, it } from 'vitest';
import { checkDynamoCall, checkSqsCall, dynamoAccessOf, enforceGrants, runAs } from '../../local/iam.js';

const env = {
  FEED_TABLE: 'local-feed',
  GRAPH_TABLE: 'local-graph',
  STATS_TABLE: 'local-stats',
  FANOUT_QUEUE_URL: 'http://127.0.0.1:1/q/fanout',
  STREAM_FAILURES_QUEUE_URL: 'http://127.0.0.1:1/q/failures',
};
const denied = /AccessDeniedException|not authorized/;

describe('local IAM: DynamoDB', () => {
  it('names the actions a call needs, per item of a transaction, per table of a batch, with the index of a Query', () => {
    expect(
      dynamoAccessOf('TransactWriteItemsCommand', {
        TransactItems: [{ Put: { TableName: 'a' } }, { ConditionCheck: { TableName: 'b' } }, { Update: { TableName: 'a' } }, { Delete: { TableName: 'b' } }],
      }),
    ).toEqual([
      { action: 'PutItem', table: 'a' },
      { action: 'ConditionCheckItem', table: 'b' },
      { action: 'UpdateItem', table: 'a' },
      { action: 'DeleteItem', table: 'b' },
    ]);
    expect(dynamoAccessOf('BatchWriteCommand', { RequestItems: { a: [], b: [] } })).toEqual([
      { action: 'BatchWriteItem', table: 'a' },
      { action: 'BatchWriteItem', table: 'b' },
    ]);
    expect(dynamoAccessOf('QueryCommand', { TableName: 'a', IndexName: 'byX' })).toEqual([{ action: 'Query', table: 'a/index/byX' }]);
    expect(dynamoAccessOf('GetCommand', { TableName: 'a' })).toEqual([{ action: 'GetItem', table: 'a' }]);
  });

  it('allows exactly what a definition lists', () => {
    expect(() => checkDynamoCall('feedRead', 'QueryCommand', { TableName: 'local-feed' }, env)).not.toThrow();
    expect(() => checkDynamoCall('feedRead', 'GetItemCommand', { TableName: 'local-feed' }, env)).not.toThrow();
    expect(() => checkDynamoCall('feedRead', 'ScanCommand', { TableName: 'local-feed' }, env)).toThrow(denied);
    expect(() => checkDynamoCall('feedRead', 'PutItemCommand', { TableName: 'local-feed' }, env)).toThrow(denied);
    expect(() => checkDynamoCall('feedRead', 'ScanCommand', { TableName: 'local-graph' }, env)).toThrow(denied);
    expect(() => checkDynamoCall('feedRead', 'QueryCommand', { TableName: 'local-stats' }, env)).toThrow(denied);
    expect(() => checkDynamoCall('feedRead', 'QueryCommand', { TableName: 'local-feed', IndexName: 'byAuthor' }, env)).toThrow(denied);
    expect(() => checkDynamoCall('health', 'GetItemCommand', { TableName: 'local-graph' }, env)).toThrow(denied);
  });

  it('checks every item of a transaction: the follow transaction passes for graph, not for feedRead', () => {
    const follow = {
      TransactItems: [{ Put: { TableName: 'local-graph' } }, { Update: { TableName: 'local-graph' } }, { Update: { TableName: 'local-feed' } }],
    };
    expect(() => checkDynamoCall('graph', 'TransactWriteItemsCommand', follow, env)).not.toThrow();
    expect(() => checkDynamoCall('feedRead', 'TransactWriteItemsCommand', follow, env)).toThrow(denied);
    const withDelete = { TransactItems: [...follow.TransactItems, { Delete: { TableName: 'local-feed' } }] };
    expect(() => checkDynamoCall('graph', 'TransactWriteItemsCommand', withDelete, env)).toThrow(/dynamodb:DeleteItem on resource: table\/local-feed/);
    const pullCheck = { TransactItems: [{ ConditionCheck: { TableName: 'local-graph' } }, { Update: { TableName: 'local-feed' } }] };
    expect(() => checkDynamoCall('maintenanceWorker', 'TransactWriteItemsCommand', pullCheck, env)).not.toThrow();
  });
});

describe('local IAM: SQS', () => {
  it('lets a function send only to the queues it lists', () => {
    expect(() => checkSqsCall('outbox', 'SendMessageBatchCommand', { QueueUrl: env.FANOUT_QUEUE_URL }, env)).not.toThrow();
    expect(() => checkSqsCall('outbox', 'SendMessageBatchCommand', { QueueUrl: env.STREAM_FAILURES_QUEUE_URL }, env)).toThrow(denied);
    expect(() => checkSqsCall('rollups', 'SendMessageCommand', { QueueUrl: env.FANOUT_QUEUE_URL }, env)).toThrow(denied);
    expect(() => checkSqsCall('outbox', 'ReceiveMessageCommand', { QueueUrl: env.FANOUT_QUEUE_URL }, env)).toThrow(denied);
  });
});

describe('local IAM: enforcement on a client', () => {
  it('checks calls made inside an invocation, and only those', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const added: ((next: (a: { input: unknown }) => Promise<unknown>, ctx: { commandName?: string }) => (a: { input: unknown }) => Promise<unknown>)[] = [];
      const fake = () => ({ middlewareStack: { add: (mw: (typeof added)[number]) => void added.push(mw) } });
      const clients = { dynamo: fake(), sqs: fake() };
      enforceGrants(clients);
      enforceGrants(clients); // once per client
      expect(added).toHaveLength(2);
      const send = added[0]!(async () => 'sent', { commandName: 'ScanCommand' });
      await expect(send({ input: { TableName: 'local-feed' } })).resolves.toBe('sent'); // not in an invocation
      await expect(runAs('feedRead', () => send({ input: { TableName: 'local-feed' } }))).rejects.toThrow(denied);
      const query = added[0]!(async () => 'ok', { commandName: 'QueryCommand' });
      await expect(runAs('feedRead', () => query({ input: { TableName: 'local-feed' } }))).resolves.toBe('ok');
    } finally {
      process.env = saved;
    }
  });
});
