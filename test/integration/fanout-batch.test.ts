/**
 * A fan-out lane batch pays per batch (services/fanout/author-fanout.ts fanoutBatch): the fan-out worker is
 * handed one SQS batch of fanout jobs, on a stack of its own without pollers (nothing else calls
 * DynamoDB meanwhile), and every call it makes is metered. The first check of every page's original
 * (with the author's own copy and whether the author is pulled) is one BatchGet and the re-check
 * after the writes one more, whatever the number of pages — and a batch that names one post twice (SQS may deliver a message twice, or
 * a post's two pages meet in one batch) still delivers, exactly once per follower. A page delivered
 * again after its post was deleted takes back the copies it may have written (its first delivery
 * may have died between its writes and the batch's re-check); a first delivery has nothing to take.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapacityMeter, meterCapacity } from '../../bench/capacity.js';
import { classifyCalls } from '../../bench/context.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { mustPost } from '../support/api.js';
import { fanoutRecord as fanoutRecordOf } from '../support/fanout-record.js';
import { feedCount } from '../support/feeds.js';
import { seedFollowers } from '../support/graph-seed.js';
import { uid } from '../support/ids.js';
import { own, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';

let meter: CapacityMeter;
let raw: DynamoDBClient;
let handler: (event: SQSEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, pollers: false });
  raw = new DynamoDBClient({ endpoint: stack.dynamoEndpoint, region: localRegion, credentials: localCredentials });
  meter = meterCapacity((await import('../../functions/platform/clients.js')).dynamo, classifyCalls(stack.tableNames));
  handler = (await import('../../functions/handlers/fanout-worker.js')).handler;
}, 120_000);

afterAll(async () => {
  raw?.destroy();
  await stopOwnStack();
});

const fanoutRecord = (author: string, receiveCount = 1) => fanoutRecordOf(raw, stack.tableNames.feed, author, receiveCount);

describe('a fan-out batch', () => {
  it('checks every page’s original in one read before the writes and one after, and a post named twice is delivered once', async () => {
    const authors = Array.from({ length: 4 }, () => uid('author'));
    const followers = await Promise.all(authors.map((a) => seedFollowers(a, 30, { on: own })));
    for (const a of authors) await mustPost(a, { verb: 'post' }, own);
    const records = await Promise.all(authors.map(fanoutRecord));
    const twice = { ...records[0]!, messageId: uid('m') }; // the same job delivered again, in the same batch
    const before = meter.snapshot();
    const out = await handler({ Records: [...records, twice] });
    const spent = meter.since(before);
    expect(out.batchItemFailures).toEqual([]);
    expect(spent.calls.BatchGetItemCommand).toBe(2);
    expect(spent.calls.GetItemCommand ?? 0).toBe(0);
    // Whether each author is pulled came with the first check: no Query of a profile partition.
    expect(spent.tags['graph query']).toBeUndefined();
    expect(spent.tags['follower list read']?.calls).toBe(records.length + 1);
    for (const f of followers.flat()) expect(await feedCount(f, own)).toBe(1);
    for (const a of authors) expect(await feedCount(a, own)).toBe(1); // the own copy POST wrote, not a second
  }, 60_000);

  it('takes back a deleted post’s copies when its page comes again, and only then', async () => {
    const author = uid('gone');
    const followers = await seedFollowers(author, 10, { on: own });
    const post = await mustPost(author, { verb: 'post' }, own);
    expect((await handler({ Records: [await fanoutRecord(author)] })).batchItemFailures).toEqual([]);
    for (const f of followers) expect(await feedCount(f, own)).toBe(1);
    // Deleted after the page wrote, its retract not run (no pollers here): as if the page died before its re-check.
    const { markOriginalDeleted } = await import('../../functions/stores/feed-store.js');
    expect(await markOriginalDeleted(author, BigInt(post.rangeKey), Math.floor(Date.now() / 1000))).toBeDefined();
    expect((await handler({ Records: [await fanoutRecord(author, 1)] })).batchItemFailures).toEqual([]);
    for (const f of followers) expect(await feedCount(f, own)).toBe(1); // a first delivery of a dead post never wrote
    expect((await handler({ Records: [await fanoutRecord(author, 2)] })).batchItemFailures).toEqual([]);
    for (const f of [...followers, author]) expect(await feedCount(f, own)).toBe(0);
  }, 60_000);
});
