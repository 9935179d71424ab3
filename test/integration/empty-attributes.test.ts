import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timelinePartition } from '../../functions/model/timeline-item.js';
import { recordsHandled } from '../support/job-done.js';
import { api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { own, settled, sqs, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

describe('posts with an empty attributes map', () => {
  it('fan out like any other post', async () => {
    const author = uid('empty');
    const follower = uid('reader');
    expect((await api('PUT', `/following/${author}`, { as: follower })).status).toBe(204);
    const post = await api('POST', '/activities', { as: author, json: { verb: 'plain', attributes: {} } });
    expect(post.status).toBe(201);
    const ids = await eventually(
      async () => {
        const items = (await api('GET', '/feed', { as: follower })).body.items as { id: string }[];
        return items.length ? items.map((i) => i.id) : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(ids).toEqual([post.body.id]);
  });
});

describe('posts with an empty attributes map and no followers (a stack of its own: its queues are its own)', () => {
  beforeAll(() => startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1 }), 120_000);
  afterAll(stopOwnStack);

  it('leave nothing in any dead-letter queue', async () => {
    const author = uid('lonely');
    const timeline = timelinePartition(author);
    const outboxed = recordsHandled('outbox', (r) => 'dynamodb' in r && r.eventName === 'INSERT' && r.dynamodb?.Keys?.pk?.S === timeline, 3);
    for (let i = 0; i < 3; i++) {
      expect((await api('POST', '/activities', { on: own, as: author, json: { verb: 'plain', attributes: {} } })).status).toBe(201);
    }
    await outboxed; // whatever jobs the three posts make are queued now
    // A failing job comes back every second until its fifth receive dead-letters it: either way the
    // queues empty — then every dead-letter queue tells which it was (no waiting out a guess).
    await settled('every job done or dead-lettered');
    const dlqs = Object.entries(stack.queueUrls).filter(([id]) => /dlq$/i.test(id));
    expect(dlqs.length).toBeGreaterThan(0);
    const depths = await Promise.all(
      dlqs.map(async ([id, QueueUrl]) => {
        const { Attributes = {} } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }));
        return [id, Number(Attributes.ApproximateNumberOfMessages ?? 0)] as const;
      }),
    );
    expect(Object.fromEntries(depths)).toEqual(Object.fromEntries(dlqs.map(([id]) => [id, 0])));
  }, 60_000);
});
