/**
 * Feeds an SQS event source's function the batches Lambda would: receive up to `batchSize`
 * messages, invoke with an `SQSEvent`, delete what succeeded, and leave failed messages
 * (`batchItemFailures`, or all of them when the handler throws) to come back — after which the
 * queue's redrive policy moves repeat offenders to the DLQ, as in AWS.
 */
import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { EventEmitter } from 'node:events';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { functions, type SqsSourceDef } from '../lib/defs/index.js';
import { localRegion } from './aws-local.js';
import { lambdaContext, loadHandler } from './handlers.js';
import type { Poller } from './poller.js';
import { sleepUntilSend } from './sqs-activity.js';

export interface SqsPollerOptions {
  readonly source: SqsSourceDef;
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  readonly queueArn: string;
  /** Parallel poll loops, like Lambda's concurrent pollers: each loop's invocation runs in an instance of its own (local/instances.ts). */
  readonly concurrency: number;
  /**
   * Seconds before a failed message is visible again. Lambda leaves it to the visibility timeout
   * (minutes); locally a shorter delay keeps retries and DLQ redrive observable. Undefined = AWS.
   */
  readonly retryDelaySeconds?: number;
}

export function startSqsPoller(opts: SqsPollerOptions): Poller {
  let running = true;
  let pauses = 0;
  const state: LoopState = { polling: 0, idle: new Set<() => void>(), nudges: new EventEmitter().setMaxListeners(0) };
  const loops = Array.from({ length: opts.concurrency }, (_, index) =>
    loop(
      opts,
      index,
      () => running,
      () => pauses > 0,
      state,
    ),
  );
  return {
    id: opts.source.id,
    async stop() {
      running = false;
      state.nudges.emit('nudge'); // no loop sleeps out its idle wait
      await Promise.allSettled(loops);
    },
    async pause() {
      pauses++;
      let resumed = false;
      // Held once no receive or batch started before the pause is still under way.
      if (state.polling > 0) await new Promise<void>((resolve) => state.idle.add(resolve));
      return () => {
        if (!resumed) pauses--;
        resumed = true;
      };
    },
  };
}

interface LoopState {
  /** Receives or batches under way, and the pauses waiting for them to end. */
  polling: number;
  readonly idle: Set<() => void>;
  /** 'nudge' wakes the idle loops: a sibling has found messages. */
  readonly nudges: EventEmitter;
}

/**
 * How long an idle loop sleeps at most between receives. A send wakes every loop at once
 * (sqs-activity.ts); what no send announces — a retry or a delayed job becoming visible — the first
 * loop finds within FIRST_IDLE_MAX_MS, and it wakes the others. So an idle stack receives about 4
 * times a second per queue, not per loop (node used 16 % of a core idle with every loop polling).
 */
const FIRST_IDLE_MAX_MS = 250;
const OTHER_IDLE_MAX_MS = 5_000;

async function loop(opts: SqsPollerOptions, index: number, running: () => boolean, paused: () => boolean, state: LoopState): Promise<void> {
  const idleMax = index === 0 ? FIRST_IDLE_MAX_MS : OTHER_IDLE_MAX_MS;
  let idleMs = 20;
  while (running()) {
    if (paused()) {
      await sleep(20);
      continue;
    }
    state.polling++;
    let handled: number | undefined;
    try {
      handled = await pollOnce(opts);
    } catch (error) {
      if (!running()) return;
      console.error(`sqs poller ${opts.source.id}:`, (error as Error).message);
    } finally {
      if (--state.polling === 0) {
        for (const resolve of state.idle) resolve();
        state.idle.clear();
      }
    }
    // Sleeping, a loop holds no pause back: pause() waits for receives and batches under way only.
    if (handled === undefined) {
      await sleep(500);
      continue;
    }
    if (handled) state.nudges.emit('nudge');
    idleMs = handled ? 20 : Math.min(idleMs * 2, idleMax);
    // Checked here, not only by the while: a stop while this receive ran has already nudged.
    if (!handled && running()) await sleepUntilSend(idleMs, opts.queueUrl, state.nudges);
  }
}

/** One receive → invoke → settle cycle. Returns how many messages were handled. */
export async function pollOnce(opts: SqsPollerOptions): Promise<number> {
  const Messages = await receiveBatch(opts);
  if (Messages.length === 0) return 0;
  const event: SQSEvent = { Records: Messages.map((m) => toRecord(m, opts.queueArn)) };
  const fn = opts.source.fn;
  let failedIds: Set<string>;
  try {
    const handler = await loadHandler(fn);
    const result = (await handler(event, lambdaContext(fn, functions[fn].timeoutSeconds * 1000, crypto.randomUUID()))) as SQSBatchResponse | undefined;
    failedIds = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
  } catch (error) {
    console.error(`${fn} failed its whole batch:`, (error as Error).message);
    failedIds = new Set(Messages.map((m) => m.MessageId!));
  }
  const done = Messages.filter((m) => !failedIds.has(m.MessageId!));
  const failed = Messages.filter((m) => failedIds.has(m.MessageId!));
  // SQS's batch calls take 10 entries each.
  for (const part of tens(done)) {
    await opts.sqs.send(
      new DeleteMessageBatchCommand({ QueueUrl: opts.queueUrl, Entries: part.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }),
    );
  }
  if (opts.retryDelaySeconds !== undefined) {
    for (const part of tens(failed)) {
      await opts.sqs.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: opts.queueUrl,
          Entries: part.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: opts.retryDelaySeconds })),
        }),
      );
    }
  }
  return Messages.length;
}

/**
 * Up to the source's batch size, 10 per ReceiveMessage (SQS's most), as Lambda gathers a batch over
 * 10 within its batching window — here without waiting: what is queued now, no more.
 */
async function receiveBatch(opts: SqsPollerOptions): Promise<Message[]> {
  const out: Message[] = [];
  while (out.length < opts.source.batchSize) {
    const want = Math.min(10, opts.source.batchSize - out.length);
    // WaitTimeSeconds 0: local-aws-sqs holds a multi-message receive for the full wait otherwise.
    const { Messages = [] } = await opts.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: opts.queueUrl,
        MaxNumberOfMessages: want,
        WaitTimeSeconds: 0,
        AttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    out.push(...Messages);
    if (Messages.length < want) break;
  }
  return out;
}

function toRecord(m: Message, queueArn: string): SQSRecord {
  const a = m.Attributes ?? {};
  return {
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body ?? '',
    attributes: {
      ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
      SentTimestamp: a.SentTimestamp ?? String(Date.now()),
      SenderId: a.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [
        k,
        {
          stringValue: v.StringValue,
          binaryValue: v.BinaryValue ? Buffer.from(v.BinaryValue).toString('base64') : undefined,
          stringListValues: [],
          binaryListValues: [],
          dataType: v.DataType ?? 'String',
        },
      ]),
    ),
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: localRegion,
  };
}

const tens = <T>(items: readonly T[]): T[][] => Array.from({ length: Math.ceil(items.length / 10) }, (_, i) => items.slice(i * 10, i * 10 + 10));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
