/**
 * What every scenario gets: the running stack, HTTP helpers with tokens, raw SDK clients on the
 * same DynamoDB Local (for side-by-side raw baselines), and a capacity meter on the handlers' own
 * SDK client (they run in this process), so cost figures come from ReturnConsumedCapacity.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localCredentials, localRegion } from '../local/aws-local.js';
import { type LocalKeys, mintToken } from '../local/jwt.js';
import type { LocalStack } from '../local/stack.js';
import { type CapacityMeter, meterCapacity } from './capacity.js';

export interface BenchContext {
  readonly stack: LocalStack;
  /** The JWT key pair the local API trusts (the naive baseline's server verifies with it too). */
  readonly keys: LocalKeys;
  readonly dynamo: DynamoDBClient;
  readonly doc: DynamoDBDocumentClient;
  readonly sqs: SQSClient;
  /** Consumed capacity of everything the handlers send to DynamoDB. */
  readonly handlerCapacity: CapacityMeter;
  token(userId: string): Promise<string>;
  /** Calls the local HTTP API as `userId`; returns status, parsed body and latency. */
  call<T = any>(method: string, path: string, userId: string, json?: unknown): Promise<{ status: number; body: T; ms: number }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): void;
}

export async function createContext(stack: LocalStack, keys: LocalKeys): Promise<BenchContext> {
  const config = { region: localRegion, credentials: localCredentials };
  const dynamo = new DynamoDBClient({ ...config, endpoint: stack.dynamoEndpoint });
  const doc = DynamoDBDocumentClient.from(dynamo, {
    marshallOptions: { removeUndefinedValues: true },
    unmarshallOptions: { wrapNumbers: true },
  });
  const sqs = new SQSClient({ ...config, endpoint: stack.sqsEndpoint });
  // The same module instance the local runtime loaded for the handlers (env is set by now).
  const handlerClients = await import('../functions/core/clients.js');
  const handlerCapacity = meterCapacity(handlerClients.dynamo);
  const tokens = new Map<string, Promise<string>>();
  const token = (userId: string) => {
    let t = tokens.get(userId);
    if (!t) tokens.set(userId, (t = mintToken(keys, userId, { expiresIn: '2h' })));
    return t;
  };
  return {
    stack,
    keys,
    dynamo,
    doc,
    sqs,
    handlerCapacity,
    token,
    async call(method, path, userId, json) {
      const headers: Record<string, string> = { authorization: `Bearer ${await token(userId)}` };
      if (json !== undefined) headers['content-type'] = 'application/json';
      const start = process.hrtime.bigint();
      const res = await fetch(`${stack.apiUrl}${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
      const text = await res.text();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      return { status: res.status, body: text ? JSON.parse(text) : undefined, ms };
    },
    close() {
      dynamo.destroy();
      sqs.destroy();
    },
  };
}
