/** Queue definitions shared by the CDK stack and the local SQS server. */

export type QueueId = 'fanout' | 'fanoutDlq' | 'streamFailures';

export interface QueueDef {
  readonly id: QueueId;
  /** Env var through which functions receive the queue URL. */
  readonly envVar: string;
  /** Must be ≥ 6 × the consuming function's timeout (AWS guidance for SQS event sources). */
  readonly visibilityTimeoutSeconds: number;
  readonly retentionSeconds: number;
  readonly deadLetter?: { readonly queue: QueueId; readonly maxReceiveCount: number };
}

export const queues: Record<QueueId, QueueDef> = {
  fanout: {
    id: 'fanout',
    envVar: 'FANOUT_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    retentionSeconds: 4 * 24 * 3600,
    deadLetter: { queue: 'fanoutDlq', maxReceiveCount: 5 },
  },
  fanoutDlq: {
    id: 'fanoutDlq',
    envVar: 'FANOUT_DLQ_URL',
    visibilityTimeoutSeconds: 30,
    retentionSeconds: 14 * 24 * 3600,
  },
  /** On-failure destination of the stream event sources: records that exhausted their retries. */
  streamFailures: {
    id: 'streamFailures',
    envVar: 'STREAM_FAILURES_QUEUE_URL',
    visibilityTimeoutSeconds: 30,
    retentionSeconds: 14 * 24 * 3600,
  },
};

export const queueList: readonly QueueDef[] = Object.values(queues);
