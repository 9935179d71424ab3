/**
 * Realtime test helpers: a WebSocket to the local realtime API (local/realtime-api.ts) that
 * records every message, and the stack's management endpoint for closing a connection from the
 * server side as API Gateway would.
 */
import { ApiGatewayManagementApiClient, DeleteConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { WebSocket } from 'ws';
import { REALTIME_ENDPOINT_ENV, REALTIME_URL_ENV } from '../../lib/defs/realtime.js';
import { PRESENCE_PARTITION, userConnectionsPrefix } from '../../functions/model/connection.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { token } from './api.js';
import { doc, stack } from './local.js';
import { eventually } from './wait.js';

export const realtimeUrl = stack.env[REALTIME_URL_ENV]!;
if (!realtimeUrl.startsWith('ws://127.0.0.1:')) throw new Error(`refusing non-local realtime url ${realtimeUrl}`);

export const management = new ApiGatewayManagementApiClient({
  region: localRegion,
  credentials: localCredentials,
  endpoint: stack.env[REALTIME_ENDPOINT_ENV]!,
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Message = { type: string; [field: string]: any };

export interface TestSocket {
  readonly messages: Message[];
  /** Resolves with the first recorded message matching `pred` (waiting up to `timeoutMs`). */
  waitFor(pred: (m: Message) => boolean, timeoutMs?: number): Promise<Message>;
  close(): Promise<void>;
}

/** Opens a socket as `user` (or with a raw `token`); resolves once open, rejects with the upgrade's status if refused. */
export async function openSocket(opts: { user?: string; token?: string }): Promise<TestSocket> {
  const t = opts.token ?? (await token(opts.user!));
  const ws = new WebSocket(`${realtimeUrl}?token=${encodeURIComponent(t)}`);
  const messages: Message[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Message));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode })));
    ws.once('error', reject);
  });
  return {
    messages,
    waitFor: (pred, timeoutMs = 30_000) => eventually(async () => messages.find(pred), { timeoutMs, intervalMs: 50 }),
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close(1000);
      }),
  };
}

/** The connection ids of `user` in the connected set. */
export async function connectionIdsOf(user: string): Promise<string[]> {
  const out = await doc.send(
    new QueryCommand({
      TableName: stack.tableNames.graph,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': PRESENCE_PARTITION, ':p': userConnectionsPrefix(user) },
    }),
  );
  return (out.Items ?? []).map((i) => String(i.sk).slice(userConnectionsPrefix(user).length));
}

/** Closes every connection of `user` from the server side (the management API's DeleteConnection). */
export async function dropConnections(user: string): Promise<void> {
  for (const id of await connectionIdsOf(user)) await management.send(new DeleteConnectionCommand({ ConnectionId: id }));
}
