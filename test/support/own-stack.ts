/**
 * A local stack of a test file's own (its pollers run in the test process, so handler modules
 * load here and their SDK clients can be given fault-injecting middleware), plus fan-out helpers
 * against it. Handler modules must load after `startOwnStack` has set the env: import them
 * dynamically afterwards. Calls and seeds go to it by naming it: `api(…, { on: own })`,
 * `seedFollowers(author, n, { on: own })`, `mustPost(author, body, own)`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { expect, inject } from 'vitest';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { generateLocalKeys, type LocalKeys } from '../../local/jwt.js';
import type { LocalStack } from '../../local/stack.js';
import { startTestStack } from './bundle-mode.js';
import { feedRks } from './feeds.js';
import { jobQueuesEmpty } from './settle.js';
import type { TestStack } from './stack-info.js';
import { eventually } from './wait.js';

export let stack: LocalStack;
export let keys: LocalKeys;
export let doc: DynamoDBDocumentClient;
export let sqs: SQSClient;
export let dataDir: string | undefined;
/** This file's stack, for `api()` and the seeders (its answers are not checked against the document: faults are injected here). */
export let own: TestStack;

export async function startOwnStack(opts: {
  persistent: boolean;
  sqsRetryDelaySeconds: number;
  env?: Record<string, string>;
  pollers?: boolean;
}): Promise<void> {
  dataDir = opts.persistent ? mkdtempSync(join(tmpdir(), 'tickfeed-own-')) : undefined;
  keys = await generateLocalKeys();
  // In the bundles pass the own stack serves its functions from the bundles too.
  stack = await startTestStack(
    {
      dataDir,
      port: 0,
      keys,
      pollers: opts.pollers ?? true,
      sqsRetryDelaySeconds: opts.sqsRetryDelaySeconds,
      // Push only (the tests here are about delivery, not the pull threshold); no count trims unless asked.
      // Rollups per 1-second tumbling window (the deployed one is minutes long).
      // A first read's restamp at once (STAMP_SPREAD), as on the shared stack.
      // Without pollers the tests hand jobs to the workers themselves, stamped as sent when built and
      // run when the test chooses: on a busy machine more than FANOUT_BACKLOG_AFTER passes between,
      // and the worker would hand a fan-out on to a backlog queue nothing polls (CI lost a copy so,
      // reader-activity.test.ts). The hand-on has its own tests (fanout-backlog*.test.ts, `0s`).
      env: {
        FANOUT_PULL_THRESHOLD: '100000',
        FEED_MAX_ITEMS: 'off',
        LOCAL_TUMBLING_WINDOW_SECONDS: '1',
        STAMP_SPREAD: 'off',
        ...(opts.pollers === false && { FANOUT_BACKLOG_AFTER: 'off' }),
        ...opts.env,
      },
    },
    inject('bundles'),
  );
  const config = { region: localRegion, credentials: localCredentials };
  doc = DynamoDBDocumentClient.from(new DynamoDBClient({ ...config, endpoint: stack.dynamoEndpoint }), {
    unmarshallOptions: { wrapNumbers: true },
  });
  sqs = new SQSClient({ ...config, endpoint: stack.sqsEndpoint });
  own = { apiUrl: stack.apiUrl, keys, doc, tableNames: stack.tableNames, checkResponses: false };
}

/** A stack of this file's own whose every copy write attempts a trim to `maxItems` (FEED_TRIM_CHANCE 1): retention without the draw. */
export const startTrimmingStack = (maxItems: number): Promise<void> =>
  startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { FEED_MAX_ITEMS: String(maxItems), FEED_TRIM_CHANCE: '1' } });

export async function stopOwnStack(): Promise<void> {
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Every job this stack queued has run (its queues are its own: no other test adds to them), so
 * whatever could land late has landed. `after` names what was waited on, for the error.
 */
export async function settled(after?: string, timeoutMs = 60_000): Promise<void> {
  const what = after ? `${after}: every queued job done` : 'every queued job done';
  await eventually(() => jobQueuesEmpty(sqs, stack.queueUrls), { what, timeoutMs });
}

/** rks of the copies stored in `owner`'s home feed (the head excluded), newest first. */
export const storedCopies = (owner: string): Promise<string[]> => feedRks(owner, own);

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

/** Every follower holds the post and nothing else; a follower holding anything else fails at once. */
export async function allDelivered(followers: readonly string[], rangeKey: string, timeoutMs = 60_000): Promise<void> {
  let last = { exact: 0, wrong: 0 };
  await eventually(
    async () => {
      last = await tally(followers, rangeKey);
      expect(last.wrong).toBe(0);
      return last.exact === followers.length;
    },
    { what: 'the post in every follower feed', timeoutMs, intervalMs: 300 },
  ).catch((error: unknown) => {
    if (last.wrong > 0) throw error; // the expect above
    throw new Error(`only ${last.exact}/${followers.length} followers have the post`, { cause: error });
  });
}
