/**
 * Local IAM for bundled functions (local/iam-proxy.ts): a function's own endpoint in front of the
 * shared stack's DynamoDB Local and SQS server passes the calls its definition grants and answers
 * the others with the AccessDeniedException an SDK client sees from AWS — the SDK the bundles
 * carry, so the bundles pass checks grants as the sources pass does.
 */
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functions, type QueueId, queues, type TableId, tables } from '../../lib/defs/index.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { type IamProxy, startIamProxy } from '../../local/iam-proxy.js';
import { uid } from '../support/ids.js';
import { sqs, stack } from '../support/local.js';

const names: NodeJS.ProcessEnv = {};
for (const id of Object.keys(tables) as TableId[]) names[tables[id].envVar] = stack.tableNames[id];

const proxies: IamProxy[] = [];
async function proxyFor(fn: keyof typeof functions, extraNames: NodeJS.ProcessEnv = {}) {
  const proxy = await startIamProxy({ fn, dynamoEndpoint: stack.dynamoEndpoint, sqsEndpoint: stack.sqsEndpoint, names: { ...names, ...extraNames } });
  proxies.push(proxy);
  return proxy;
}
const clientConfig = (endpoint: string) => ({ region: localRegion, credentials: localCredentials, endpoint, maxAttempts: 1 });

afterAll(async () => {
  for (const p of proxies) await p.stop();
});

describe('a bundled function’s DynamoDB endpoint', () => {
  let doc: DynamoDBDocumentClient;
  beforeAll(async () => {
    doc = DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig((await proxyFor('me')).url)));
  });

  it('passes a granted call through to DynamoDB Local', async () => {
    expect(functions.me.tables.graph).toContain('GetItem');
    const out = await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: { pk: uid('nobody'), sk: 'x' } }));
    expect(out.Item).toBeUndefined();
    expect(out.$metadata.httpStatusCode).toBe(200);
  });

  it('refuses an action the definition does not grant, and nothing is written', async () => {
    expect(functions.me.tables.graph).not.toContain('PutItem');
    const key = { pk: uid('denied'), sk: 'x' };
    const error = await doc.send(new PutCommand({ TableName: stack.tableNames.graph, Item: key })).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ name: 'AccessDeniedException' });
    expect((error as Error).message).toMatch(/function me is not authorized to perform: dynamodb:PutItem/);
    const direct = DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig(stack.dynamoEndpoint)));
    expect((await direct.send(new GetCommand({ TableName: stack.tableNames.graph, Key: key, ConsistentRead: true }))).Item).toBeUndefined();
  });

  it('refuses a table the function has no grant on', async () => {
    expect(functions.me.tables.feed).toBeUndefined();
    const error = await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: { pk: 'x', rk: 1 } })).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ name: 'AccessDeniedException' });
  });
});

describe('a bundled function’s SQS endpoint', () => {
  it('sends to a queue the function may send to, through the queue URL it is given', async () => {
    // A scratch queue stands in for the sender's queue, so that no consumer of the stack sees the message.
    const sender = (Object.keys(functions) as (keyof typeof functions)[]).find((fn) => functions[fn].sendsTo.length > 0)!;
    const queue: QueueId = functions[sender].sendsTo[0]!;
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: uid('iam-proxy') }));
    const proxy = await proxyFor(sender, { [queues[queue].envVar]: QueueUrl! });
    const client = new SQSClient(clientConfig(proxy.url));
    const given = proxy.queueUrlFor(QueueUrl!);
    expect(new URL(given).origin).toBe(proxy.url); // the SDK sends to the queue URL's host: the proxy
    await client.send(new SendMessageCommand({ QueueUrl: given, MessageBody: 'hello' }));
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 0 }));
    expect(Messages.map((m) => m.Body)).toEqual(['hello']);
  });

  it('refuses a send by a function that sends to no queue', async () => {
    expect(functions.me.sendsTo).toEqual([]);
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: uid('iam-proxy') }));
    const proxy = await proxyFor('me');
    const error = await new SQSClient(clientConfig(proxy.url))
      .send(new SendMessageCommand({ QueueUrl: proxy.queueUrlFor(QueueUrl!), MessageBody: 'no' }))
      .catch((e: unknown) => e as Error);
    // SQS's JSON protocol names the error by its query-compatible code, as AWS answers it.
    expect(error).toMatchObject({ name: 'AccessDenied' });
    expect((error as Error).message).toMatch(/function me is not authorized to perform: sqs:SendMessage/);
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 0 }));
    expect(Messages).toEqual([]);
  });
});
