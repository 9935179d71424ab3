/**
 * Per-caller rate limits, at the DEFAULT limits, on a stack of this file's own
 * (the shared test stack sets limits its tests never meet). The handlers run in this process, so
 * the limiter's clock is frozen here (nothing refills unless the test moves it) and its writes to
 * the limits table are counted: one conditional UpdateItem per lease of 20 tokens, no read.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../lib/defs/config.js';
import { DEFAULT_RATE_LIMITS } from '../../lib/defs/rate-limits.js';
import { ADMIN_SCOPE } from '../../lib/defs/scopes.js';
import { allowanceOf, bucketExpiresAt, bucketOf, burstPerInstance, leaseOf, rateBucketKey, spanUs } from '../../functions/model/rate-bucket.js';
import { timelinePartition } from '../../functions/model/timeline-item.js';
import { api, type ApiResponse } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, own, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';

// Frozen at the real time (the buckets' TTL is real time too: a clock in the past would let TTL empty them).
let nowMs = Date.now();
let restoreClock: (() => void) | undefined;
const limitsCalls: { command: string }[] = [];

beforeAll(async () => {
  // The deployment default, whatever the shared test stack set in this worker's env. No pollers:
  // what is limited is decided and written by the request itself (the timeline counted here too),
  // and the fan-out of some 260 posts would only take the CPU from the requests.
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, pollers: false, env: { RATE_LIMITS: DEFAULT_RATE_LIMITS } });
  const service = await import('../../functions/services/rate-limits.js');
  restoreClock = service.setRateLimitClock(() => nowMs);
  service.forgetHeldTokens();
  const clients = await import('../../functions/platform/clients.js');
  meterLimitsTable(clients.dynamo, stack.tableNames.limits);
}, 120_000);

afterAll(async () => {
  restoreClock?.();
  await stopOwnStack();
});

function meterLimitsTable(dynamo: DynamoDBClient, table: string) {
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if ((args.input as { TableName?: string }).TableName === table) limitsCalls.push({ command: String(context.commandName) });
      return next(args);
    },
    { step: 'initialize', name: 'countLimitsTableCalls' },
  );
}

const post = (user: string, scope?: string): Promise<ApiResponse> => api('POST', '/activities', { on: own, as: user, scope, json: { verb: 'post' } });

async function timelineSize(user: string): Promise<number> {
  const out = await doc.send(
    new QueryCommand({
      TableName: stack.tableNames.feed,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': timelinePartition(user) },
      Select: 'COUNT',
    }),
  );
  return out.Count ?? 0;
}

describe('the default rate limits bite a script', () => {
  const limit = readConfig('RATE_LIMITS', {})!.posts;
  const allowed = burstPerInstance(limit); // 200 from the shared bucket, 20 of this instance's own

  it('posting as fast as it can, a user gets a 429 with Retry-After past the burst, and nothing is written', async () => {
    const user = uid('script');
    limitsCalls.length = 0;
    for (let i = 0; i < allowed; i++) {
      const res = await post(user);
      expect(res.status, `post ${i + 1}`).toBe(201);
    }
    const refused = await post(user);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    // The shared bucket refills one post every 600 s / 200 = 3 s.
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited', type: 'urn:tickfeed:problem:rate_limited' });
    expect(await timelineSize(user)).toBe(allowed);

    // Cheap: the instance's own 20 cost nothing; then one write per lease of 20. No read; and the
    // refusal costs nothing either (this instance saw the bucket empty, and it only fills with time).
    expect(limitsCalls.map((c) => c.command)).toEqual(Array(limit.burst / leaseOf(limit)).fill('UpdateItemCommand'));
  });

  /**
   * Where the first test leaves a script, without its 200 posts: the shared bucket written empty
   * (its tat a whole span ahead, as 200 takes leave it), then the instance's own allowance spent.
   */
  async function exhaustPosts(user: string): Promise<number> {
    const spec = bucketOf(limit);
    const nowUs = nowMs * 1000;
    await doc.send(
      new PutCommand({
        TableName: stack.tableNames.limits,
        Item: { ...rateBucketKey(user, 'posts'), tat: nowUs + spanUs(spec), expiresAt: bucketExpiresAt(nowUs, spec) },
      }),
    );
    const allowance = allowanceOf(limit).burst;
    for (let i = 0; i < allowance; i++) expect((await post(user)).status, `post ${i + 1}`).toBe(201);
    return allowance;
  }

  it('refills with time (one post per 3 s), and keeps refusing past it', async () => {
    const user = uid('patient');
    const accepted = await exhaustPosts(user);
    expect((await post(user)).status).toBe(429);
    nowMs += 3_000;
    expect((await post(user)).status).toBe(201);
    expect((await post(user)).status).toBe(429);
    expect(await timelineSize(user)).toBe(accepted + 1);
  });

  it('limits each class on its own, and not admin tokens', async () => {
    const user = uid('classes');
    await exhaustPosts(user);
    expect((await post(user)).status).toBe(429);
    // Reads have their own bucket.
    const feed = await api('GET', '/feed', { on: own, as: user });
    expect(feed.status).toBe(200);
    // The product's backend (admin scope) is not limited, even for this user.
    expect((await post(user, ADMIN_SCOPE)).status).toBe(201);
  });
});
