/**
 * How deep the local stack's queues are (approximate SQS counts), for the tools that wait for the
 * job lanes to drain or check their dead letters: the bench scenarios and the soak audit.
 */
import { GetQueueAttributesCommand, type QueueAttributeName, type SQSClient } from '@aws-sdk/client-sqs';
import { laneDlq, laneList } from '../lib/defs/lanes.js';
import type { QueueId } from '../lib/defs/queues.js';

/** What the queue helpers need: an SQS client and the stack's queue URLs. */
export interface QueueReader {
  readonly sqs: SQSClient;
  readonly stack: { readonly queueUrls: Record<QueueId, string> };
}

/** Messages on a queue: waiting, plus (unless `waitingOnly`) received and in flight. */
export async function queueDepth(ctx: QueueReader, queue: QueueId, waitingOnly = false): Promise<number> {
  const names = waitingOnly ? ['ApproximateNumberOfMessages'] : ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'];
  const { Attributes = {} } = await ctx.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: ctx.stack.queueUrls[queue], AttributeNames: names as QueueAttributeName[] }),
  );
  return names.reduce((sum, name) => sum + Number(Attributes[name as QueueAttributeName] ?? 0), 0);
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Messages waiting or in flight on every job lane's queue. */
export const fanoutBacklog = async (ctx: QueueReader): Promise<number> => sum(await Promise.all(laneList.map((l) => queueDepth(ctx, l.id))));

/** Messages in the job lanes' dead-letter queues. */
export const fanoutDlqDepth = async (ctx: QueueReader): Promise<number> => sum(await Promise.all(laneList.map((l) => queueDepth(ctx, laneDlq(l.id), true))));
