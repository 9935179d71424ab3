/**
 * Helpers for the feed tests: a per-user API client with a cached token, posting, bounded
 * concurrency, and a document client on the local DynamoDB that counts the Queries it sends.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Activity } from '../../functions/core/feed/activity.js';
import type { Page } from '../../functions/core/feed/read.js';
import { api, dynamo, token } from './local.js';

export type { Activity, Page };

/** An API client acting as `user` (one token, minted once). */
export async function as(user: string) {
  const bearer = await token(user);
  return {
    user,
    post: (body: unknown) => api<Activity>('POST', '/activities', { token: bearer, json: body }),
    get: (path: string) => api('GET', path, { token: bearer }),
    del: (id: string) => api('DELETE', `/activities/${id}`, { token: bearer }),
    page: (path: string, params: Record<string, string | number> = {}) => {
      const q = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
      return api<Page>('GET', q.size ? `${path}?${q}` : path, { token: bearer });
    },
  };
}

/** Post and insist on 201. */
export async function mustPost(client: Awaited<ReturnType<typeof as>>, body: unknown): Promise<Activity> {
  const res = await client.post(body);
  if (res.status !== 201) throw new Error(`POST /activities: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Run `fn` over `inputs` with at most `concurrency` in flight; results in input order. */
export async function pool<I, O>(inputs: readonly I[], concurrency: number, fn: (input: I, index: number) => Promise<O>): Promise<O[]> {
  const out: O[] = new Array(inputs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, inputs.length) }, async () => {
      while (next < inputs.length) {
        const i = next++;
        out[i] = await fn(inputs[i]!, i);
      }
    }),
  );
  return out;
}

/** A document client like the handlers' (wrapNumbers) that counts every Query it sends. */
export function countingClient() {
  const counts = { query: 0 };
  const client = DynamoDBDocumentClient.from(dynamo, {
    marshallOptions: { removeUndefinedValues: true },
    unmarshallOptions: { wrapNumbers: true },
  });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') counts.query++;
      return next(args);
    },
    { step: 'initialize', name: 'countQueries' },
  );
  return { counts, client };
}

export const ascending = (keys: readonly string[]) => keys.every((k, i) => i === 0 || BigInt(keys[i - 1]!) < BigInt(k));
export const newestFirst = <T extends { rangeKey: string }>(xs: readonly T[]) =>
  [...xs].sort((a, b) => (BigInt(a.rangeKey) < BigInt(b.rangeKey) ? -1 : 1));
