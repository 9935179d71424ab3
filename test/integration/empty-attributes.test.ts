import { describe, expect, it } from 'vitest';
import { api, eventually, uid } from '../support/local.js';

describe('posts with an empty attributes map', () => {
  it('fan out like any other post', async () => {
    const author = uid('empty');
    const follower = uid('reader');
    expect((await api('PUT', `/following/${author}`, { as: follower })).status).toBe(204);
    const post = await api('POST', '/activities', { as: author, json: { verb: 'plain', attributes: {} } });
    expect(post.status).toBe(201);
    const ids = await eventually(async () => {
      const items = (await api('GET', '/feed', { as: follower })).body.items as { id: string }[];
      return items.length ? items.map((i) => i.id) : undefined;
    }, 20_000, 200);
    expect(ids).toEqual([post.body.id]);
  });
});

describe('posts with an empty attributes map and no followers', () => {
  it('leave nothing in the fan-out DLQ', async () => {
    const { GetQueueAttributesCommand } = await import('@aws-sdk/client-sqs');
    const { sqs, stack } = await import('../support/local.js');
    const dlqDepth = async () =>
      Number(
        (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: stack.queueUrls.fanoutDlq, AttributeNames: ['ApproximateNumberOfMessages'] })))
          .Attributes?.ApproximateNumberOfMessages ?? 0,
      );
    const before = await dlqDepth();
    const author = uid('lonely');
    for (let i = 0; i < 3; i++) {
      expect((await api('POST', '/activities', { as: author, json: { verb: 'plain', attributes: {} } })).status).toBe(201);
    }
    await new Promise((r) => setTimeout(r, 12_000)); // 5 receives at 1 s retry delay, plus slack
    expect(await dlqDepth()).toBe(before);
  }, 40_000);
});
