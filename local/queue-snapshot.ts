/**
 * The local SQS server keeps messages in memory. On a clean stop of a persistent `npm start`, the
 * messages still queued are saved beside the data and sent again at the next start, so fan-out
 * jobs the API already acknowledged survive a restart (a crash still loses them; in AWS the queue
 * is durable).
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { ReceiveMessageCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { QueueId } from '../lib/defs/index.js';

type Snapshot = Partial<Record<QueueId, string[]>>;

/** Receive everything left in the queues (pollers must be stopped) and write it to `file`. */
export async function saveQueues(sqs: SQSClient, queueUrls: Record<QueueId, string>, file: string): Promise<number> {
  const snapshot: Snapshot = {};
  let total = 0;
  for (const [id, url] of Object.entries(queueUrls) as [QueueId, string][]) {
    const bodies: string[] = [];
    for (let round = 0; round < 10_000; round++) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 600 }),
      );
      if (Messages.length === 0) break;
      bodies.push(...Messages.map((m) => m.Body ?? ''));
    }
    if (bodies.length) snapshot[id] = bodies;
    total += bodies.length;
  }
  writeFileSync(`${file}.tmp`, JSON.stringify(snapshot));
  renameSync(`${file}.tmp`, file);
  return total;
}

/** Send the saved messages again, then forget the snapshot. */
export async function restoreQueues(sqs: SQSClient, queueUrls: Record<QueueId, string>, file: string): Promise<number> {
  if (!existsSync(file)) return 0;
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  let total = 0;
  for (const [id, bodies] of Object.entries(snapshot) as [QueueId, string[]][]) {
    for (let i = 0; i < bodies.length; i += 10) {
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrls[id],
          Entries: bodies.slice(i, i + 10).map((MessageBody, j) => ({ Id: String(j), MessageBody })),
        }),
      );
    }
    total += bodies.length;
  }
  rmSync(file);
  return total;
}
