/**
 * The job queues (SQS, one per lane): the only importer of the SQS client. Sends message bodies,
 * 10 per SendMessageBatch; what a body means is services/jobs/jobs.ts's business.
 */
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { QueueId } from '../../lib/defs/queues.js';
import { sqs } from '../platform/sqs-client.js';
import { queueUrl } from '../platform/env.js';

/** Indexes of the bodies that were NOT accepted (entry failures); throws if a call fails outright. */
export async function sendMessages(queue: QueueId, bodies: readonly string[], delaySeconds = 0): Promise<number[]> {
  const failed: number[] = [];
  for (let i = 0; i < bodies.length; i += 10) {
    const out = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl(queue),
        Entries: bodies.slice(i, i + 10).map((MessageBody, j) => ({
          Id: String(i + j),
          MessageBody,
          ...(delaySeconds ? { DelaySeconds: delaySeconds } : {}),
        })),
      }),
    );
    for (const f of out.Failed ?? []) failed.push(Number(f.Id));
  }
  return failed.sort((a, b) => a - b);
}
