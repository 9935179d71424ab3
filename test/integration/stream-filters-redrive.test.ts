/**
 * Stream consumers on an OWN local stack (its pollers run in this process, so the handlers load
 * here and every event they receive can be observed — local/handlers.ts `tapInvocations` — and
 * faults can be injected into their SDK client):
 * - event filters: home-feed copy inserts, trims (REMOVE), head updates and copy rewrites never
 *   reach the outbox or the rollups handler; a timeline insert reaches both, a DELETE the outbox only;
 * - re-drive: a poisoned batch ends in the stream-failures queue with Lambda's on-failure record;
 *   re-driving it while still poisoned keeps the message; once the poison is fixed `npm run redrive`
 *   replays it, the effect appears (counted once) and the message is gone;
 * - rollup reads with ROLLUP_PARTITIONS=4 and no TTL: at most 100 partition Queries per read.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { feedHeadKey } from '../../functions/model/feed-head.js';
import { timelinePartition } from '../../functions/model/timeline-item.js';
import { feedPartitionPrefix } from '../../lib/defs/key-prefixes.js';
import { eventSources, functions, type StreamSourceDef } from '../../lib/defs/index.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { writeEndpoints } from '../../local/endpoints.js';
import { lambdaContext, loadHandler, tapInvocations } from '../../local/handlers.js';
import { redriveStreamFailures } from '../../local/redrive.js';
import type { StreamFailureRecord } from '../../local/stream-poller.js';
import { ADMIN, api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, own, settled, sqs, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

const exec = promisify(execFile);
const projectRoot = resolve(import.meta.dirname, '../..');
const DAY = 86_400_000;
const POISON = 'poison_v';

/** Every record each stream consumer was invoked with, in this process. */
const received: Record<'outbox' | 'rollups', DynamoDBRecord[]> = { outbox: [], rollups: [] };
let poisoned = false;
let streamArn = '';
let workDir: string;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { ROLLUP_PARTITIONS: '4', ROLLUP_TTL: 'off' } });
  workDir = mkdtempSync(join(tmpdir(), 'tickfeed-redrive-'));
  tapInvocations((fn, event) => {
    if (fn === 'outbox' || fn === 'rollups') received[fn].push(...(event as DynamoDBStreamEvent).Records);
  });
  // The poison: the rollups handler's write of anything about verb POISON fails, while `poisoned`.
  const { dynamo } = await import('../../functions/platform/clients.js');
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if (poisoned && context.commandName === 'BatchWriteItemCommand' && JSON.stringify(args.input).includes(POISON)) {
        throw Object.assign(new Error('injected poison'), { name: 'InjectedPoison' });
      }
      return next(args);
    },
    { step: 'initialize', name: 'injectPoison' },
  );
}, 120_000);

afterAll(async () => {
  await stopOwnStack();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const pkOf = (r: DynamoDBRecord) => r.dynamodb?.Keys?.pk?.S ?? '';
const countOf = async (verb: string) => {
  const to = new Date(Date.now() + 60_000).toISOString();
  const from = new Date(Date.now() - 3_600_000).toISOString();
  const res = await api('GET', `/rollups/${verb}.count?from=${from}&to=${to}&granularity=hour`, { on: own, as: uid('backend'), scope: ADMIN });
  expect(res.status).toBe(200);
  return (res.body.points as { value: number }[]).reduce((s, p) => s + p.value, 0);
};
const queueDepth = async () => {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: stack.queueUrls.streamFailures,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes.ApproximateNumberOfMessages) + Number(Attributes.ApproximateNumberOfMessagesNotVisible);
};

describe('event filters (own stack)', () => {
  it('deliver timeline inserts to both consumers and deletions to the outbox — never copies, trims or heads', async () => {
    const author = uid('author');
    const owner = uid('owner');
    const table = stack.tableNames.feed;
    // Noise first: a copy insert, its rewrite, its trim removal, a head update.
    const copy = { pk: homeFeedPartition(owner), rk: 4242n, verb: 'post', actor: author, time: new Date().toISOString() };
    await doc.send(new PutCommand({ TableName: table, Item: copy }));
    await doc.send(new PutCommand({ TableName: table, Item: { ...copy, content: 'rewritten' } }));
    await doc.send(new DeleteCommand({ TableName: table, Key: { pk: copy.pk, rk: copy.rk } }));
    await doc.send(
      new UpdateCommand({
        TableName: table,
        Key: feedHeadKey(owner),
        UpdateExpression: 'ADD pulled :a',
        ExpressionAttributeValues: { ':a': new Set([author]) },
      }),
    );
    // Then a real post (original + the author's own copy) and its deletion (tombstone MODIFY + copy REMOVE).
    const posted = await api('POST', '/activities', { on: own, as: author, json: { verb: 'filtered' } });
    expect(posted.status).toBe(201);
    const timelinePk = timelinePartition(author);
    await eventually(() => received.rollups.some((r) => pkOf(r) === timelinePk), { what: 'rollups to get the timeline insert', timeoutMs: 30_000 });
    expect((await api('DELETE', `/activities/${posted.body.id}`, { on: own, as: author })).status).toBe(204);
    await eventually(() => received.outbox.some((r) => pkOf(r) === timelinePk && r.eventName === 'MODIFY'), {
      what: 'the outbox to get the deletion',
      timeoutMs: 30_000,
    });
    // Every job is done (the retract's copy removal, the purge): no more writes of this test to come.
    await settled('the deletion');
    // Bounded: a filtered record never reaches a handler, and a later sentinel item may sit on another shard, so nothing marks the stream read.
    await new Promise((r) => setTimeout(r, 1500)); // anything else still in flight would have arrived by now

    const mine = (fn: 'outbox' | 'rollups') => received[fn].filter((r) => [timelinePk, homeFeedPartition(owner), homeFeedPartition(author)].includes(pkOf(r)));
    expect(mine('outbox').map((r) => `${r.eventName} ${pkOf(r)}`)).toEqual([`INSERT ${timelinePk}`, `MODIFY ${timelinePk}`]);
    expect(mine('rollups').map((r) => `${r.eventName} ${pkOf(r)}`)).toEqual([`INSERT ${timelinePk}`]);
    // Across everything this stack did (fan-out copies, retract removals, heads): no f# record ever.
    for (const fn of ['outbox', 'rollups'] as const)
      expect(
        received[fn].filter((r) => pkOf(r).startsWith(feedPartitionPrefix.homeFeed)),
        fn,
      ).toEqual([]);
    expect(received.rollups.filter((r) => r.eventName !== 'INSERT')).toEqual([]);
  }, 90_000);
});

describe('re-drive of a failed stream batch (own stack)', () => {
  const invokeHere = async (source: StreamSourceDef, event: DynamoDBStreamEvent) => {
    const handler = await loadHandler(source.fn);
    return (await handler(event, lambdaContext(source.fn, functions[source.fn].timeoutSeconds * 1000, 'test'))) as DynamoDBBatchResponse | undefined;
  };
  const streams = () => new DynamoDBStreamsClient({ region: localRegion, credentials: localCredentials, endpoint: stack.dynamoEndpoint });

  it('lands a poisoned batch in the failure queue; keeps it while still poisoned; replays it with `npm run redrive` once fixed', async () => {
    expect(await queueDepth()).toBe(0);
    poisoned = true;
    const author = uid('poisoner');
    expect((await api('POST', '/activities', { on: own, as: author, json: { verb: POISON } })).status).toBe(201);
    await eventually(async () => (await queueDepth()) === 1, { what: 'the on-failure message', timeoutMs: 90_000 });
    expect(await countOf(POISON)).toBe(0); // skipped: not counted

    // Lambda's on-failure record: where the batch was, not its records.
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: stack.queueUrls.streamFailures, VisibilityTimeout: 0 }));
    const failure = JSON.parse(Messages[0]!.Body!) as StreamFailureRecord;
    expect(failure).toMatchObject({
      version: '1.0',
      requestContext: { condition: 'RetryAttemptsExhausted', functionArn: expect.stringMatching(/:function:tickfeed-rollups$/) },
      responseContext: { statusCode: 200, executedVersion: '$LATEST' },
      DDBStreamBatchInfo: { batchSize: 1, streamArn: expect.stringContaining(stack.tableNames.feed) },
    });
    const source = eventSources.find((e) => e.kind === 'stream' && e.fn === 'rollups') as StreamSourceDef;
    expect(failure.requestContext.approximateInvokeCount).toBe(1 + source.retryAttempts);
    streamArn = failure.DDBStreamBatchInfo.streamArn;
    expect(failure.DDBStreamBatchInfo.approximateArrivalOfFirstRecord).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // Re-driving while the poison is still there: the consumer fails again, the message stays.
    const stillPoisoned = await redriveStreamFailures({ sqs, streams: streams(), queueUrl: stack.queueUrls.streamFailures, invoke: invokeHere });
    expect(stillPoisoned).toEqual([expect.objectContaining({ outcome: 'failed', fn: 'rollups', read: 1, delivered: 0 })]);
    expect(await queueDepth()).toBe(1);
    expect(await countOf(POISON)).toBe(0);

    // Fixed: the CLI (a process of its own, reaching this stack through an endpoints file) replays it.
    poisoned = false;
    const endpoints = join(workDir, 'endpoints.json');
    writeEndpoints(endpoints, stack);
    const run = await exec('npx', ['tsx', 'local/redrive-cli.ts', '--endpoints', endpoints], {
      cwd: projectRoot,
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    expect(run.stdout).toMatch(/^redriven\s+\S+\s+rollups\s+.*read=1\s+delivered=1/m);
    expect(run.stdout).toContain('1 of 1 message(s) re-driven');
    expect(await countOf(POISON)).toBe(1);
    expect(await queueDepth()).toBe(0);

    // Nothing left: a second run does nothing, and the activity stays counted once.
    const again = await exec('npx', ['tsx', 'local/redrive-cli.ts', '--endpoints', endpoints], { cwd: projectRoot, env: process.env });
    expect(again.stdout).toContain('0 of 0 message(s) re-driven');
    expect(await countOf(POISON)).toBe(1);
  }, 180_000);

  it('leaves a message whose records the stream no longer holds, saying so', async () => {
    expect(streamArn).not.toBe('');
    const bogus: StreamFailureRecord = {
      requestContext: {
        requestId: 'r',
        functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:tickfeed-rollups',
        condition: 'RetryAttemptsExhausted',
        approximateInvokeCount: 11,
      },
      responseContext: { statusCode: 200, executedVersion: '$LATEST' },
      version: '1.0',
      timestamp: new Date().toISOString(),
      DDBStreamBatchInfo: {
        shardId: 'shardId-00000000000000000000-00000000',
        startSequenceNumber: '100000000000000000001',
        endSequenceNumber: '100000000000000000001',
        approximateArrivalOfFirstRecord: '2026-01-01T00:00:00Z',
        approximateArrivalOfLastRecord: '2026-01-01T00:00:00Z',
        batchSize: 1,
        streamArn, // the real stream (from the test above), a shard it never had
      },
    };
    await sqs.send(new SendMessageCommand({ QueueUrl: stack.queueUrls.streamFailures, MessageBody: JSON.stringify(bogus) }));
    const results = await redriveStreamFailures({ sqs, streams: streams(), queueUrl: stack.queueUrls.streamFailures, invoke: invokeHere });
    expect(results).toHaveLength(1);
    expect(results[0], JSON.stringify(results[0])).toMatchObject({ outcome: 'expired', fn: 'rollups', delivered: 0 });
    expect(await queueDepth()).toBe(1); // kept for an operator to look at
  }, 60_000);
});

describe('rollup reads: at most 100 partition Queries (own stack: ROLLUP_PARTITIONS=4, ROLLUP_TTL=off)', () => {
  it('serves 25 days by day (100 Queries) and refuses 26 (104) with 400 problem+json', async () => {
    const to = Math.floor(Date.now() / DAY) * DAY;
    const read = (days: number) =>
      api('GET', `/rollups/x.count?granularity=day&from=${new Date(to - days * DAY).toISOString()}&to=${new Date(to).toISOString()}`, {
        on: own,
        as: uid('backend'),
        scope: ADMIN,
      });
    expect((await read(25)).status).toBe(200);
    const over = await read(26);
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([expect.objectContaining({ field: 'query.from', message: expect.stringContaining('104 Queries') })]);
  });
});
