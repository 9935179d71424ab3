/**
 * Text SQS cannot carry. SQS refuses a message body holding characters outside
 * #x9 #xA #xD #x20–#xD7FF #xE000–#xFFFD #x10000–#x10FFFF and messages over 1 MiB; the local SQS
 * server now refuses them as SQS does (it accepted both, so no test saw a post acknowledged whose
 * jobs could never be queued), and the edge refuses such text in any request with a 400 before
 * anything is written.
 */
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { feedRks, timelineRks } from '../support/feeds.js';
import { api, token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { sqs, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';

const MIB = 1_048_576;

async function freshQueue(): Promise<string> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: uid('sqs-rules') }));
  return QueueUrl!;
}

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: Error) => e,
  );

describe('the local SQS server enforces what SQS accepts', () => {
  it('refuses a body with a character outside the allowed set (InvalidMessageContents)', async () => {
    const queue = await freshQueue();
    for (const bad of ['a\u0001b', 'x\u0000', 'x\uFFFE', 'x\uFFFF', 'lone \uD800 surrogate', 'esc \u001b']) {
      const error = await errorOf(sqs.send(new SendMessageCommand({ QueueUrl: queue, MessageBody: bad })));
      expect(error?.name, JSON.stringify(bad)).toBe('InvalidMessageContents');
    }
    // What the set allows goes through, astral characters included.
    const fine = 'tab\t lf\n cr\r del\u007f \uE000 \uFFFD \u{10000} \u{10FFFF} 😀';
    await sqs.send(new SendMessageCommand({ QueueUrl: queue, MessageBody: fine }));
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue, MaxNumberOfMessages: 1, WaitTimeSeconds: 1 }));
    expect(Messages.map((m) => m.Body)).toEqual([fine]);
  });

  it('counts the 1 MiB limit in UTF-8 bytes (the library counted UTF-16 units)', async () => {
    const queue = await freshQueue();
    // 524,289 two-byte characters: 1,048,578 bytes, but only 524,289 UTF-16 units.
    const tooLong = await errorOf(sqs.send(new SendMessageCommand({ QueueUrl: queue, MessageBody: 'é'.repeat(MIB / 2 + 1) })));
    expect(tooLong?.name).toBe('InvalidParameterValue');
    expect(tooLong?.message).toMatch(/shorter than 1048576 bytes/);
    await sqs.send(new SendMessageCommand({ QueueUrl: queue, MessageBody: 'é'.repeat(MIB / 2) })); // exactly 1 MiB
  });

  it('fails only the refused entries of a batch, and refuses a batch over 1 MiB whole', async () => {
    const queue = await freshQueue();
    const out = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue,
        Entries: [
          { Id: 'good', MessageBody: 'fine' },
          { Id: 'bad', MessageBody: 'not \uFFFF fine' },
        ],
      }),
    );
    expect(out.Successful?.map((s) => s.Id)).toEqual(['good']);
    expect(out.Failed?.map((f) => [f.Id, f.Code, f.SenderFault])).toEqual([['bad', 'InvalidMessageContents', true]]);
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue, MaxNumberOfMessages: 1, WaitTimeSeconds: 1 }));
    expect(Messages.map((m) => m.Body)).toEqual(['fine']);

    const half = 'x'.repeat(MIB / 2 + 1);
    const whole = await errorOf(
      sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queue,
          Entries: [
            { Id: 'a', MessageBody: half },
            { Id: 'b', MessageBody: half },
          ],
        }),
      ),
    );
    expect(whole?.name).toBe('BatchRequestTooLong');
  });
});

describe('the edge refuses text the job queue cannot carry', () => {
  it('a post holding it anywhere is a 400 naming the field, and writes nothing', async () => {
    const author = uid('sqs-edge');
    const cases: [unknown, string][] = [
      [{ verb: 'post', content: 'hello \u0001 world' }, 'body.content'],
      [{ verb: 'post', object: 'photo:\uFFFF' }, 'body.object'],
      [{ verb: 'post', attributes: { note: 'bell\u0007' } }, 'body.attributes.note'],
      [{ verb: 'post', to: [`${uid('to')}\uFFFE`] }, 'body.to.0'],
      [{ verb: 'post', foreignId: 'f\u0000' }, 'body.foreignId'],
    ];
    for (const [body, field] of cases) {
      const res = await api('POST', '/activities', { as: author, json: body });
      expect(res.status, field).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    // A lone surrogate, as JSON may carry it (`\ud800`): JSON.stringify would escape it the same way.
    const lone = await api('POST', '/activities', {
      as: author,
      raw: '{"verb":"post","content":"a \\ud800 b"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(lone.status).toBe(400);
    expect(await timelineRks(author)).toEqual([]);
  });

  it('comments, path ids and token subjects are held to it too', async () => {
    const author = uid('sqs-author');
    const post = await api('POST', '/activities', { as: author, json: { verb: 'post' } });
    expect(post.status).toBe(201);
    const comment = await api('POST', `/activities/${encodeURIComponent(post.body.id)}/comments`, { as: uid('sqs-c'), json: { text: 'x\u0002y' } });
    expect(comment.status).toBe(400);
    expect(comment.body.errors[0].field).toBe('body.text');

    const me = uid('sqs-me');
    expect((await api('PUT', `/following/${encodeURIComponent(`${uid('t')}\uFFFF`)}`, { as: me })).status).toBe(400);
    expect((await api('PUT', `/mutes/${encodeURIComponent(`${uid('t')}\uFFFE`)}`, { as: me })).status).toBe(400);
    expect((await api('GET', `/users/${me}`, { as: me })).body.following).toBe(0);

    const res = await fetch(`${stack.apiUrl}/activities`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await token(`${uid('sub')}\uFFFF`)}`, 'content-type': 'application/json' },
      body: '{"verb":"post"}',
    });
    expect(res.status).toBe(401);
  });

  it('what the queue can carry is accepted and fans out', async () => {
    const author = uid('sqs-ok');
    const follower = uid('sqs-f');
    expect((await api('PUT', `/following/${author}`, { as: follower })).status).toBe(204);
    const content = 'tab\there, line\nbreak, private \uE000, replacement \uFFFD, astral \u{1F600} \u{10FFFF}';
    const post = await api('POST', '/activities', { as: author, json: { verb: 'post', content } });
    expect(post.status).toBe(201);
    await eventually(async () => (await feedRks(follower)).includes(post.body.rangeKey));
    const page = await api('GET', '/feed', { as: follower });
    expect(page.body.items[0].content).toBe(content);
  });
});
