/**
 * `npm run soak [-- --minutes 3 --users 30 --retry-delay 4]`: a local stack on persistent data in a
 * temp dir, mixed load from a SECOND process (local/soak/load.ts) while faults are injected into the
 * handlers' DynamoDB client (they run in this process) and DynamoDB Local is killed and restarted,
 * then a drain and an audit. Prints a table, saves it to bench/results/soak.json, exits 1 if the
 * audit fails.
 *
 * Faults, at fractions of the posting phase: throttling of 30% of feed-table BatchWriteItem calls
 * (15%–35%), one worker crash after half of a fan-out page's writes (45%), and a SIGKILL + restart of
 * DynamoDB Local on the same data (60%).
 *
 * The SQS retry delay defaults to 4 s (not 1): with maxReceiveCount 5 the jobs that fail while
 * DynamoDB Local is down must outlive the restart, as a Lambda visibility timeout would.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { localCredentials, localRegion } from '../aws-local.js';
import { type DynamoDbLocal, startDynamoDbLocal } from '../dynamodb-local.js';
import { generateLocalKeys, mintToken } from '../jwt.js';
import { startLocalStack } from '../stack.js';
import { fanoutBacklog, fanoutDlqDepth, queueDepth } from '../queue-depth.js';
import type { LoadResult } from './load.js';

const here = dirname(fileURLToPath(import.meta.url));

// `npm run soak -- model --minutes N`: the model test (test/model/home-feed.test.ts) explores histories for N minutes.
if (process.argv[2] === 'model') {
  const { values } = parseArgs({ args: process.argv.slice(3), options: { minutes: { type: 'string', default: '30' } } });
  const seconds = Math.round(Number(values.minutes) * 60);
  if (!(seconds > 0)) throw new Error('--minutes must be a positive number');
  const child = fork(join(here, '../../node_modules/vitest/vitest.mjs'), ['run', 'test/model/home-feed.test.ts', '-t', 'explores'], {
    env: { ...process.env, MODEL_SECONDS: String(seconds), MODEL_RANDOM: '1' },
  });
  child.on('exit', (code) => process.exit(code ?? 1));
  await new Promise(() => undefined); // the child's exit ends this process
}

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '3' },
    users: { type: 'string', default: '30' },
    'retry-delay': { type: 'string', default: '4' },
    'max-requests': { type: 'string', default: '20000' },
  },
});
const minutes = Number(args.minutes);
if (!(minutes > 0 && minutes <= 10)) throw new Error('--minutes must be in (0, 10]');
const loadMs = minutes * 60_000;
const started = Date.now();
const run = started.toString(36);
const verb = `soak_${run}`;
const log = (msg: string) => console.error(`[soak +${((Date.now() - started) / 1000).toFixed(0)}s] ${msg}`);

const dataDir = mkdtempSync(join(tmpdir(), 'tickfeed-soak-'));
const keys = await generateLocalKeys();
let restarted: DynamoDbLocal | undefined;
const stack = await startLocalStack({
  dataDir,
  port: 0,
  keys,
  pollers: true,
  sqsRetryDelaySeconds: Number(args['retry-delay']),
  // Rollups per 2-second tumbling window (the deployed one is 2 minutes): the drain below waits for their counts.
  env: { FANOUT_PULL_THRESHOLD: '100000', FEED_MAX_ITEMS: 'off', LOCAL_TUMBLING_WINDOW_SECONDS: '2' },
});
log(`stack up at ${stack.apiUrl} (data ${dataDir})`);

// ---- Faults on the handlers' DynamoDB client (loaded after the stack has set the env). ----
const faults = { throttleFraction: 0, crashArmed: false, throttled: 0, crashes: 0, restarts: 0, restartMs: 0, batchWrites: 0 };
const { dynamo: handlerDynamo } = await import('../../functions/platform/clients.js');
handlerDynamo.middlewareStack.add(
  (next, context) => async (args) => {
    const input = args.input as { RequestItems?: Record<string, unknown[]> };
    const requests = input.RequestItems?.[stack.tableNames.feed];
    if (!context.commandName?.startsWith('BatchWrite') || !requests) return next(args);
    faults.batchWrites += 1;
    if (faults.throttleFraction > 0 && Math.random() < faults.throttleFraction) {
      faults.throttled += 1;
      throw Object.assign(new Error('injected throttling'), { name: 'ProvisionedThroughputExceededException' });
    }
    // A fan-out page (not a POST's own single copy): write half of it, then die.
    if (faults.crashArmed && requests.length >= 4) {
      faults.crashArmed = false;
      faults.crashes += 1;
      const half = Math.ceil(requests.length / 2);
      await next({ ...args, input: { ...input, RequestItems: { [stack.tableNames.feed]: requests.slice(0, half) } } });
      throw Object.assign(new Error('injected crash mid fan-out page'), { name: 'InjectedCrash' });
    }
    return next(args);
  },
  { step: 'initialize', name: 'soakFaults' },
);

// ---- The load, from a second process. ----
const child = fork(join(here, 'load.ts'), [], {
  execArgv: ['--import', 'tsx'],
  env: {
    ...process.env,
    SOAK_API_URL: stack.apiUrl,
    SOAK_KEYS: JSON.stringify(keys),
    SOAK_USERS: String(Number(args.users)),
    SOAK_LOAD_MS: String(loadMs),
    SOAK_MAX_REQUESTS: String(Number(args['max-requests'])),
    SOAK_VERB: verb,
    SOAK_RUN: run,
  },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
let loadResult: LoadResult | undefined;
const postingStarted = new Promise<void>((resolve) => child.on('message', (m: { type: string }) => m.type === 'posting' && resolve()));
const loadDone = new Promise<LoadResult>((resolve, reject) => {
  child.on('message', (m: { type: string; result?: LoadResult }) => m.type === 'result' && resolve(m.result!));
  child.on('exit', (code) => (loadResult ? undefined : reject(new Error(`load process exited with ${code} before its result`))));
});
loadDone.then((r) => (loadResult = r)).catch(() => undefined);

let exitCode = 1;
try {
  await Promise.race([postingStarted, loadDone]);
  log('follow graph built; posting with faults');
  const t0 = Date.now();
  const at = (f: number) => sleep(Math.max(0, t0 + f * loadMs - Date.now()));
  const schedule = (async () => {
    await at(0.15);
    log('fault: throttling 30% of feed BatchWriteItem calls');
    faults.throttleFraction = 0.3;
    await at(0.35);
    faults.throttleFraction = 0;
    log(`fault: throttling off (${faults.throttled} throttled)`);
    await at(0.45);
    log('fault: worker crash after half of a fan-out page');
    faults.crashArmed = true;
    await at(0.6);
    log('fault: SIGKILL DynamoDB Local');
    const r0 = Date.now();
    process.kill(stack.dynamoPid, 'SIGKILL');
    const port = Number(new URL(stack.dynamoEndpoint).port);
    await sleep(500);
    restarted = await startDynamoDbLocal({ port, dataDir: join(dataDir, 'dynamodb') });
    faults.restarts += 1;
    faults.restartMs = Date.now() - r0;
    log(`DynamoDB Local restarted in ${faults.restartMs} ms`);
  })();
  const load = await loadDone;
  await schedule;
  log(`load done: ${load.requests} requests, ${Object.keys(load.acked).length} acknowledged posts; draining`);

  // ---- Drain and audit. ----
  const config = { region: localRegion, credentials: localCredentials };
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ ...config, endpoint: stack.dynamoEndpoint }));
  const queues = { stack, sqs: new SQSClient({ ...config, endpoint: stack.sqsEndpoint }) };
  const adminToken = await mintToken(keys, `soak-${run}-admin`, { scope: 'tickfeed/admin' });
  const get = async <T>(path: string, token: string): Promise<T> => {
    const res = await fetch(`${stack.apiUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  const users = Array.from({ length: Number(args.users) }, (_, i) => `soak-${run}-u${i}`);
  const userToken = await mintToken(keys, users[0]!);
  const followersOf = new Map<string, string[]>();
  for (const u of users) {
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { userId: string }[]; next: string | null } = await get(
        `/users/${u}/followers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        userToken,
      );
      all.push(...page.items.map((i) => i.userId));
      cursor = page.next;
    } while (cursor);
    followersOf.set(u, all);
  }
  const expected = new Map<string, Set<string>>(users.map((u) => [u, new Set()]));
  let copiesExpected = 0;
  for (const [id, author] of Object.entries(load.acked)) {
    for (const owner of new Set([author, ...(followersOf.get(author) ?? [])])) {
      if (!expected.has(owner)) expected.set(owner, new Set());
      expected.get(owner)!.add(id);
      copiesExpected += 1;
    }
  }
  const homeFeed = async (owner: string): Promise<string[]> => {
    const ids: string[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const out = await doc.send(
        new QueryCommand({
          TableName: stack.tableNames.feed,
          KeyConditionExpression: 'pk = :pk AND rk > :head',
          ExpressionAttributeValues: { ':pk': homeFeedPartition(owner), ':head': 0 },
          ProjectionExpression: 'id',
          ExclusiveStartKey,
        }),
      );
      ids.push(...(out.Items ?? []).map((i) => String(i.id)));
      ExclusiveStartKey = out.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return ids;
  };
  const rollupCount = async () => {
    const q = new URLSearchParams({
      from: new Date(load.startedPostingAt - 86_400_000).toISOString(),
      to: new Date(Date.now() + 86_400_000).toISOString(),
      granularity: 'day',
    });
    const body = await get<{ points: { value: number }[] }>(`/rollups/${encodeURIComponent(`${verb}.count`)}?${q.toString()}`, adminToken);
    return body.points.reduce((s, p) => s + p.value, 0);
  };
  const audit = async () => {
    let found = 0;
    let missing = 0;
    let duplicated = 0;
    let unknown = 0;
    for (const [owner, want] of expected) {
      const ids = await homeFeed(owner);
      const seen = new Map<string, number>();
      for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
      for (const [id, n] of seen) {
        if (!want.has(id)) unknown += n;
        else {
          found += 1;
          if (n > 1) duplicated += n - 1;
        }
      }
      for (const id of want) if (!seen.has(id)) missing += 1;
    }
    return { found, missing, duplicated, unknown };
  };

  const drainDeadline = Date.now() + 180_000;
  let copies = await audit();
  let rollup = await rollupCount();
  const rollupExpected = Object.keys(load.acked).length;
  while ((copies.missing > 0 || rollup !== rollupExpected || (await fanoutBacklog(queues)) > 0) && Date.now() < drainDeadline) {
    await sleep(2_000);
    copies = await audit();
    rollup = await rollupCount();
  }
  const dlq = { fanoutDlq: await fanoutDlqDepth(queues), streamFailures: await queueDepth(queues, 'streamFailures') };

  const ok =
    load.unacked.length === 0 &&
    copies.missing === 0 &&
    copies.duplicated === 0 &&
    copies.unknown === 0 &&
    copies.found === copiesExpected &&
    rollup === rollupExpected &&
    dlq.fanoutDlq === 0 &&
    dlq.streamFailures === 0;
  const table: Record<string, string | number> = {
    'duration (s)': Math.round((Date.now() - started) / 1000),
    'load (s)': Math.round((load.endedAt - load.startedPostingAt) / 1000),
    users: users.length,
    follows: `${load.follows} (${load.followErrors} failed)`,
    requests: load.requests,
    'responses by kind': Object.entries(load.responses)
      .map(([k, v]) => `${k}=${v}`)
      .join(' '),
    'post retries (same foreignId)': load.postRetries,
    'acknowledged posts': rollupExpected,
    'unacknowledged posts': load.unacked.length,
    'copies expected': copiesExpected,
    'copies found': copies.found,
    'copies missing': copies.missing,
    'copies duplicated': copies.duplicated,
    'copies of unknown ids': copies.unknown,
    [`rollup ${verb}.count expected`]: rollupExpected,
    [`rollup ${verb}.count found`]: rollup,
    'job DLQs depth': dlq.fanoutDlq,
    'stream failures depth': dlq.streamFailures,
    'faults: throttled BatchWriteItem calls': `${faults.throttled} of ${faults.batchWrites}`,
    'faults: worker crashes mid-page': faults.crashes,
    'faults: DynamoDB Local restarts': `${faults.restarts} (${faults.restartMs} ms)`,
    audit: ok ? 'PASS' : 'FAIL',
  };
  console.table(table);
  // Beside the bench results, where docs/operations.md points for the latest run.
  const results = join(here, '..', '..', 'bench', 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'soak.json'), `${JSON.stringify({ at: new Date().toISOString(), minutes, ...table }, null, 2)}\n`);
  exitCode = ok ? 0 : 1;
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  if (child.exitCode === null) child.kill('SIGTERM');
  await stack.stop().catch(() => undefined);
  await restarted?.stop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
