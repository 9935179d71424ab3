/** SQS queues from the shared definitions: SSL enforced, SQS-managed encryption, DLQ redrive. */
import { Duration } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { constructId, type QueueId, queueList } from '../defs/index.js';

export function createQueues(scope: Construct): Record<QueueId, sqs.Queue> {
  const out = {} as Record<QueueId, sqs.Queue>;
  // Dead-letter targets first, so a redrive policy can point at them.
  const ordered = [...queueList].sort((a, b) => Number(!!a.deadLetter) - Number(!!b.deadLetter));
  for (const def of ordered) {
    out[def.id] = new sqs.Queue(scope, constructId(def.id, 'Queue'), {
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
      retentionPeriod: Duration.seconds(def.retentionSeconds),
      deadLetterQueue: def.deadLetter ? { queue: out[def.deadLetter.queue], maxReceiveCount: def.deadLetter.maxReceiveCount } : undefined,
    });
  }
  return out;
}
