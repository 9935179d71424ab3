/**
 * A local stack of a test file's own (its pollers run in the test process, so handler modules
 * load here and their SDK clients can be given fault-injecting middleware), plus fan-out helpers
 * against it. Handler modules must load after `startOwnStack` has set the env: import them
 * dynamically afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect, inject } from 'vitest';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { activeEdgeItem } from '../../functions/model/follow-edge.js';
import { followListItem } from '../../functions/model/follow-lists.js';
import { profileKey } from '../../functions/model/profile.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { generateLocalKeys, type LocalKeys, mintToken } from '../../local/jwt.js';
import type { LocalStack } from '../../local/stack.js';
import { startTestStack } from './bundle-mode.js';

export let stack: LocalStack;
export let keys: LocalKeys;
export let doc: DynamoDBDocumentClient;
export let sqs: SQSClient;
export let dataDir: string | undefined;

let uidCounter = 0;
export const uid = (p: string) => `${p}-${process.pid}-${Date.now().toString(36)}-${uidCounter++}`;

export async function startOwnStack(opts: { persistent: boolean; sqsRetryDelaySeconds: number; env?: Record<string, string>; pollers?: boolean }): Promise<void> {
  dataDir = opts.persistent ? mkdtempSync(join(tmpdir(), 'tickfeed-own-')) : undefined;
  keys = await generateLocalKeys();
  // In the bundles pass the own stack serves its functions from the bundles too.
  stack = await startTestStack({
    dataDir,
    port: 0,
    keys,
    pollers: opts.pollers ?? true,
    sqsRetryDelaySeconds: opts.sqsRetryDelaySeconds,
    // Push only (the tests here are about delivery, not the pull threshold); no count trims unless asked.
    // Rollups per 1-second tumbling window (the deployed one is minutes long).
    env: { FANOUT_PULL_THRESHOLD: '100000', FEED_MAX_ITEMS: 'off', LOCAL_TUMBLING_WINDOW_SECONDS: '1', ...opts.env },
  }, inject('bundles'));
  const config = { region: localRegion, credentials: localCredentials };
  doc = DynamoDBDocumentClient.from(new DynamoDBClient({ ...config, endpoint: stack.dynamoEndpoint }), {
    unmarshallOptions: { wrapNumbers: true },
  });
  sqs = new SQSClient({ ...config, endpoint: stack.sqsEndpoint });
}

export async function stopOwnStack(): Promise<void> {
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

/** Followers written directly (edge + both list entries + the author's counter). */
export async function seedFollowers(author: string, count: number): Promise<string[]> {
  const followers = Array.from({ length: count }, () => uid('f'));
  const items = followers.flatMap((f, i) => {
    const edge = activeEdgeItem(f, author, BigInt(Date.now()) * 1_000_000n + BigInt(i), false);
    return [edge, followListItem('followers', author, edge.order, f), followListItem('following', f, edge.order, author)];
  });
  for (let i = 0; i < items.length; i += 25) {
    let requests = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (requests.length) {
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [stack.tableNames.graph]: requests } }));
      requests = (out.UnprocessedItems?.[stack.tableNames.graph] ?? []) as typeof requests;
    }
  }
  await doc.send(
    new UpdateCommand({
      TableName: stack.tableNames.graph,
      Key: profileKey(author),
      UpdateExpression: 'ADD followers :n',
      ExpressionAttributeValues: { ':n': count },
    }),
  );
  return followers;
}

export async function post(author: string): Promise<{ id: string; rangeKey: string }> {
  const token = await mintToken(keys, author);
  const res = await fetch(`${stack.apiUrl}/activities`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ verb: 'post' }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; rangeKey: string };
}

/** rks of the copies stored in `owner`'s home feed (the head excluded), newest first. */
export async function storedCopies(owner: string): Promise<string[]> {
  const { Items = [] } = await doc.send(
    new QueryCommand({
      TableName: stack.tableNames.feed,
      KeyConditionExpression: 'pk = :pk AND rk > :head',
      ExpressionAttributeValues: { ':pk': homeFeedPartition(owner), ':head': 0 },
      ProjectionExpression: 'rk',
    }),
  );
  return Items.map((i) => String(i.rk));
}

/** How many followers hold exactly one item (the post), and how many hold anything else. */
export async function tally(followers: readonly string[], rangeKey: string): Promise<{ exact: number; wrong: number }> {
  let exact = 0;
  let wrong = 0;
  let next = 0;
  const lane = async () => {
    while (next < followers.length) {
      const rks = await storedCopies(followers[next++]!);
      if (rks.length === 1 && rks[0] === rangeKey) exact += 1;
      else if (rks.length > 0) wrong += 1;
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
  return { exact, wrong };
}

export async function allDelivered(followers: readonly string[], rangeKey: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const t = await tally(followers, rangeKey);
    expect(t.wrong).toBe(0);
    if (t.exact === followers.length) return;
    if (Date.now() > deadline) throw new Error(`only ${t.exact}/${followers.length} followers have the post`);
    await new Promise((r) => setTimeout(r, 300));
  }
}


/** Call the own stack's HTTP API as `as` (with `scope`, e.g. tickfeed/admin, if given). */
export async function call(method: string, path: string, as: string, json?: unknown, opts: { scope?: string } = {}) {
  const bearer = await mintToken(keys, as, opts.scope ? { scope: opts.scope } : {});
  const res = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}

/** Poll until `probe` is true; fails naming `what` after `timeoutMs`. */
export async function until(probe: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
