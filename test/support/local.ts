/**
 * Test helpers over the shared local stack: clients, tokens, HTTP calls, unique ids, polling.
 * Every test uses fresh ids from `uid()` so tests never see each other's data.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { type MintOptions, mintToken } from '../../local/jwt.js';
import { recordResponse } from './response-log.js';

export const stack = inject('localStack');

// Guard: these helpers only ever talk to loopback endpoints.
for (const url of [stack.apiUrl, stack.dynamoEndpoint, stack.sqsEndpoint]) {
  if (!url.startsWith('http://127.0.0.1:')) throw new Error(`refusing non-local endpoint ${url}`);
}

const clientConfig = { region: localRegion, credentials: localCredentials };
export const dynamo = new DynamoDBClient({ ...clientConfig, endpoint: stack.dynamoEndpoint });
export const doc = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
  unmarshallOptions: { wrapNumbers: true },
});
export const streams = new DynamoDBStreamsClient({ ...clientConfig, endpoint: stack.dynamoEndpoint });
export const sqs = new SQSClient({ ...clientConfig, endpoint: stack.sqsEndpoint });

/** A unique id with a readable prefix, e.g. `alice-3f2a…`. */
export const uid = (prefix = 'u') => `${prefix}-${randomUUID().slice(0, 12)}`;

export function token(sub: string, opts?: MintOptions): Promise<string> {
  return mintToken({ privateJwk: stack.privateJwk, publicJwk: stack.publicJwk }, sub, opts);
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** The scope of the product backend's tokens (lib/defs/scopes.ts). */
export const ADMIN = 'tickfeed/admin';

/**
 * Call the local HTTP API. `as` mints a token for that user (with `scope`, e.g. ADMIN, if given);
 * `raw` sends a string body as is.
 * Every response is checked against the OpenAPI document (support/response-log.ts).
 */
export async function api<T = any>( // eslint-disable-line @typescript-eslint/no-explicit-any
  method: string,
  path: string,
  opts: { as?: string; scope?: string; token?: string; json?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  const bearer = opts.token ?? (opts.as ? await token(opts.as, opts.scope ? { scope: opts.scope } : undefined) : undefined);
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let body: string | undefined = opts.raw;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${stack.apiUrl}${path}`, { method, headers, body });
  const text = await res.text();
  recordResponse({ method, path, status: res.status, headers: res.headers, text });
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** Poll `probe` until it returns a truthy value; fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T>, timeoutMs = 20_000, intervalMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
