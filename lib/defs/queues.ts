/** Queue definitions shared by the CDK stack and the local SQS server: one queue and one DLQ per job lane. */
import { type LaneId, laneDlq, laneList, lanes } from './lanes.js';

export type QueueId = LaneId | `${LaneId}Dlq` | 'streamFailures';

export interface QueueDef {
  readonly id: QueueId;
  /** Env var through which functions receive the queue URL. */
  readonly envVar: string;
  /** Must be ≥ 6 × the consuming function's timeout (AWS guidance for SQS event sources). */
  readonly visibilityTimeoutSeconds: number;
  readonly retentionSeconds: number;
  readonly deadLetter?: { readonly queue: QueueId; readonly maxReceiveCount: number };
}

const envName = (id: string) => id.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();

function laneQueues(lane: LaneId): [QueueDef, QueueDef] {
  const dlq = laneDlq(lane);
  return [
    {
      id: lane,
      envVar: `${envName(lane)}_QUEUE_URL`,
      visibilityTimeoutSeconds: 6 * lanes[lane].timeoutSeconds,
      retentionSeconds: 4 * 24 * 3600,
      deadLetter: { queue: dlq, maxReceiveCount: 5 },
    },
    { id: dlq, envVar: `${envName(lane)}_DLQ_URL`, visibilityTimeoutSeconds: 30, retentionSeconds: 14 * 24 * 3600 },
  ];
}

export const queues = Object.fromEntries(
  [
    ...laneList.flatMap((l) => laneQueues(l.id)),
    /** On-failure destination of the stream event sources: records that exhausted their retries. */
    { id: 'streamFailures', envVar: 'STREAM_FAILURES_QUEUE_URL', visibilityTimeoutSeconds: 30, retentionSeconds: 14 * 24 * 3600 } satisfies QueueDef,
  ].map((q) => [q.id, q]),
) as Record<QueueId, QueueDef>;

export const queueList: readonly QueueDef[] = Object.values(queues);
