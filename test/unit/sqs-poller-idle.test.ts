/**
 * The local SQS poller when its queue is idle (local/sqs-poller.ts): only the first loop polls on a
 * timer, a send wakes every loop, and neither stop() nor a test's pause() waits out an idle sleep —
 * stop() also not when a receive was under way as it was called. Fake timers and a fake SQS client: the loops' schedule is the
 * subject, not the queue (the integration tests run the real SQS server).
 */
import { ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SqsSourceDef } from '../../lib/defs/index.js';
import { announceSend } from '../../local/sqs-activity.js';
import { startSqsPoller } from '../../local/sqs-poller.js';

const source = { id: 'idleJobs', kind: 'sqs', batchSize: 10 } as unknown as SqsSourceDef;

/** A queue that never has a message; each receive answers when `answer` says so (at once by default). */
function emptyQueue(answer: () => Promise<void> = async () => {}) {
  const receives = { count: 0 };
  const sqs = {
    send: vi.fn(async (command: unknown) => {
      if (!(command instanceof ReceiveMessageCommand)) throw new Error('an empty queue gets receives only');
      receives.count++;
      await answer();
      return { Messages: [] };
    }),
  } as unknown as SQSClient;
  return { sqs, receives };
}

const start = (sqs: SQSClient) => startSqsPoller({ source, sqs, queueUrl: 'http://127.0.0.1/q', queueArn: 'arn:aws:sqs:local:0:q', concurrency: 4 });

/** Whether `promise` settles while the fake clock stands still (only pending promise callbacks run). */
async function settlesWithoutTime(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(0);
  return settled;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('an idle SQS poller', () => {
  it('polls with its first loop only, and wakes every loop on a send to its queue, none on another’s', async () => {
    const { sqs, receives } = emptyQueue();
    const poller = start(sqs);
    await vi.advanceTimersByTimeAsync(20_000);
    // Loop 0 backs off to 250 ms (about 80 receives in 20 s); loops 1–3 to 5 s (about 10 each).
    // With every loop on 250 ms it would be about 320.
    expect(receives.count).toBeGreaterThan(70);
    expect(receives.count).toBeLessThan(130);

    // A send to another queue wakes none of them (a long poll waits on its own queue).
    const before = receives.count;
    announceSend('http://127.0.0.1/other');
    await vi.advanceTimersByTimeAsync(0);
    expect(receives.count).toBe(before);
    announceSend('http://127.0.0.1/q');
    await vi.advanceTimersByTimeAsync(0);
    expect(receives.count - before).toBe(4);
    expect(await settlesWithoutTime(poller.stop())).toBe(true);
  });

  it('stops at once, also when a receive was under way as stop() was called', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let hold = false;
    const { sqs, receives } = emptyQueue(() => (hold ? held : Promise.resolve()));
    const poller = start(sqs);
    await vi.advanceTimersByTimeAsync(20_000); // every loop asleep, loops 1–3 for seconds
    hold = true;
    announceSend('http://127.0.0.1/q'); // all four receive, and their receives hang
    await vi.advanceTimersByTimeAsync(0);
    const hanging = receives.count;

    const stopped = poller.stop();
    release(); // the receives answer after stop() nudged: no loop may go to sleep now
    expect(await settlesWithoutTime(stopped)).toBe(true);
    expect(receives.count).toBe(hanging);
  });

  it('pauses at once while its loops sleep, and receives nothing until resumed', async () => {
    const { sqs, receives } = emptyQueue();
    const poller = start(sqs);
    await vi.advanceTimersByTimeAsync(20_000);
    const paused = poller.pause!();
    expect(await settlesWithoutTime(paused)).toBe(true);
    const before = receives.count;
    announceSend('http://127.0.0.1/q');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(receives.count).toBe(before);

    (await paused)();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(receives.count).toBeGreaterThan(before);
    await poller.stop();
  });
});
