/**
 * Helpers for the feed tests: a per-user API client with a cached token, posting, page walks,
 * and the activity store / feed reader wired to the local tables with a Query counter.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createFeedReader } from '../../functions/core/activities/reader.js';
import type { ActivityView, PageView } from '../../functions/core/activities/schemas.js';
import { createActivityStore } from '../../functions/core/activities/store.js';
import { api, dynamo, stack, token } from './local.js';

export type Activity = ActivityView;
export type Page = PageView;

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

/** The store and reader on the local tables, through a client that counts the Queries it sends. */
export function countingCore() {
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
  const tables = { feed: stack.tableNames.feed, graph: stack.tableNames.graph };
  return { counts, reader: createFeedReader(client, tables.feed), store: createActivityStore(client, tables) };
}

export const ascending = (keys: readonly string[]) => keys.every((k, i) => i === 0 || BigInt(keys[i - 1]!) < BigInt(k));
