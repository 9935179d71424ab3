/**
 * What every scenario gets: the stack, HTTP calls with tokens, raw SDK clients on the same
 * DynamoDB Local (for raw baselines), and a capacity meter on the handlers' own SDK client.
 */
import { withoutSdkLogging } from '../functions/platform/quiet-client.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localCredentials, localRegion } from '../local/aws-local.js';
import { type LocalKeys, mintToken } from '../local/jwt.js';
import type { LocalStack } from '../local/stack.js';
import { PRESENCE_PARTITION } from '../functions/model/connection.js';
import { homeFeedPartition } from '../functions/model/feed-copy.js';
import { HEAD_RK } from '../functions/model/feed-head.js';
import { followListPartition } from '../functions/model/follow-lists.js';
import { profileKey } from '../functions/model/profile.js';
import { authorOfTimelinePk } from '../functions/model/timeline-item.js';
import { type CallClassifier, type CapacityMeter, meterCapacity } from './capacity.js';

export interface BenchContext {
  readonly stack: LocalStack;
  /** The JWT key pair the local API trusts. */
  readonly keys: LocalKeys;
  readonly dynamo: DynamoDBClient;
  readonly doc: DynamoDBDocumentClient;
  readonly sqs: SQSClient;
  /** What the handlers send DynamoDB, by command, table and kind of call (classifyCalls). */
  readonly handlerCapacity: CapacityMeter;
  token(userId: string): Promise<string>;
  /** Calls the local HTTP API as `userId`; returns status, parsed body and latency. */
  call<T = any>(method: string, path: string, userId: string, json?: unknown): Promise<{ status: number; body: T; ms: number }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): void;
}

export async function createContext(stack: LocalStack, keys: LocalKeys): Promise<BenchContext> {
  const config = { region: localRegion, credentials: localCredentials };
  const dynamo = withoutSdkLogging(new DynamoDBClient({ ...config, endpoint: stack.dynamoEndpoint }));
  const doc = DynamoDBDocumentClient.from(dynamo, {
    marshallOptions: { removeUndefinedValues: true },
    unmarshallOptions: { wrapNumbers: true },
  });
  const sqs = withoutSdkLogging(new SQSClient({ ...config, endpoint: stack.sqsEndpoint }));
  // The same module instance the local runtime loaded for the handlers (env is set by now).
  const handlerClients = await import('../functions/platform/clients.js');
  const handlerCapacity = meterCapacity(handlerClients.dynamo, classifyCalls(stack.tableNames));
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
    call: async (method, path, userId, json) => timedFetch(`${stack.apiUrl}${path}`, method, await token(userId), json),
    close() {
      dynamo.destroy();
      sqs.destroy();
    },
  };
}

/** One HTTP request with a bearer token, timed from the request to the whole body read (ms). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a caller names the body type; any is its default
export async function timedFetch<T = any>(url: string, method: string, token: string, json?: unknown): Promise<{ status: number; body: T; ms: number }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const start = process.hrtime.bigint();
  const res = await fetch(url, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  const text = await res.text();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { status: res.status, body: text ? JSON.parse(text) : undefined, ms };
}

/** A key value in document or attribute-value form, as text. */
function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object' && ('S' in v || 'N' in v)) return String((v as { S?: string; N?: string }).S ?? (v as { N?: string }).N);
  return String(v);
}

/** The kinds of call a home-feed trim makes (services/retention/trim.ts). */
export const isTrimTag = (tag: string) => ['head read', 'trim key scan', 'copy deletes', 'trim top'].includes(tag);

/** Names the kind of each handler call from its input (partitions recognised by the model's own key builders). */
export function classifyCalls(tables: LocalStack['tableNames']): CallClassifier {
  const isHome = (pk: string | undefined) => pk !== undefined && pk.startsWith(homeFeedPartition(''));
  const isTimeline = (pk: string | undefined) => authorOfTimelinePk(pk) !== undefined;
  return (name, input) => {
    const table = input.TableName as string | undefined;
    const key = input.Key as Record<string, unknown> | undefined;
    const pk = text(key?.pk);
    switch (name) {
      case 'GetItemCommand':
        if (table === tables.feed) return isHome(pk) && text(key?.rk) === String(HEAD_RK) ? 'head read' : isTimeline(pk) ? 'original read' : 'feed get';
        if (pk?.startsWith(profileKey('').pk) && text(key?.sk) === profileKey('').sk) return 'profile read';
        return 'graph get';
      case 'QueryCommand': {
        const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
        const qpk = text(values?.[':pk']);
        if (table === tables.feed) {
          if (isHome(qpk)) return input.ProjectionExpression === 'rk' ? 'trim key scan' : 'home-feed page';
          return 'timeline query';
        }
        if (qpk?.startsWith(followListPartition('followers', ''))) return 'follower list read';
        if (qpk === PRESENCE_PARTITION) return 'connected set read';
        return 'graph query';
      }
      case 'BatchWriteItemCommand': {
        const requests = (input.RequestItems as Record<string, { PutRequest?: unknown; DeleteRequest?: unknown }[]> | undefined) ?? {};
        const feedRequests = requests[tables.feed];
        if (feedRequests?.length) return feedRequests[0]!.DeleteRequest ? 'copy deletes' : 'copy writes';
        return 'graph batch write';
      }
      case 'PutItemCommand':
        return table === tables.feed && isTimeline(text((input.Item as Record<string, unknown> | undefined)?.pk)) ? 'original write' : `put ${table}`;
      case 'UpdateItemCommand':
        if (table === tables.feed && isHome(pk) && text(key?.rk) === String(HEAD_RK)) {
          // A trim records `top` (SET #top = :t); follows and unfollows ADD/DELETE pulled.
          const names = Object.values((input.ExpressionAttributeNames as Record<string, string> | undefined) ?? {});
          return names.includes('top') || /\btop\b/.test(String(input.UpdateExpression)) ? 'trim top' : 'head update';
        }
        return table === tables.feed ? 'feed update' : 'graph update';
      case 'TransactWriteItemsCommand':
        return 'transaction';
      case 'BatchGetItemCommand':
        return 'batch get';
      default:
        return name;
    }
  };
}
