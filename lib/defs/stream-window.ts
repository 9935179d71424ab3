/**
 * Lambda's tumbling windows for DynamoDB streams (TumblingWindowInSeconds on the event source
 * mapping, ≤ 900 s): the event and response shapes, shared by the consumer that uses them
 * (functions/handlers/rollups.ts), the local poller that emulates them (local/stream-poller.ts) and
 * the re-drive tool. @types/aws-lambda types them for Kinesis only.
 *
 * What Lambda does (docs, "Implementing stateful DynamoDB stream processing in Lambda"): records
 * belong to the window of their ApproximateCreationDateTime, per shard; each invocation gets the
 * `state` the previous successful one returned (≤ 1 MB, else the window ends early); the response
 * must carry `state`, or the invocation counts as failed; at the window's end one more invocation
 * has `isFinalInvokeForWindow`, after which the state is dropped and the position checkpointed; a
 * failed final invocation is retried (with the same state) before the shard moves on. Records are
 * processed in order the first time; a retry may deliver some again, possibly out of order.
 */
import type { DynamoDBRecord } from 'aws-lambda';

/** A JSON object: what Lambda carries between the invocations of one window. */
export type WindowStateJson = Record<string, unknown>;

export interface DynamoDBStreamWindowEvent {
  readonly Records: DynamoDBRecord[];
  /** ISO 8601 instants, end exclusive. */
  readonly window: { readonly start: string; readonly end: string };
  /** `{}` at the start of a window. */
  readonly state?: WindowStateJson;
  readonly shardId: string;
  readonly eventSourceARN: string;
  readonly isFinalInvokeForWindow: boolean;
  readonly isWindowTerminatedEarly: boolean;
}

export interface DynamoDBStreamWindowResponse {
  readonly state: WindowStateJson;
  readonly batchItemFailures: { itemIdentifier: string }[];
}

export const isWindowEvent = (event: unknown): event is DynamoDBStreamWindowEvent =>
  typeof event === 'object' && event !== null && 'window' in event && typeof (event as { shardId?: unknown }).shardId === 'string';

/**
 * The initial state a re-drive passes when it replays a range of a shard as a window of its own
 * (local/redrive.ts): the consumer must not treat records below its shard's high-water mark as
 * already counted — they are there because they failed — but only those its own records say it
 * counted.
 */
export interface ReplayState extends WindowStateJson {
  readonly replay: { readonly from: string; readonly to: string };
}

/** Start (epoch ms) of the window holding a record created at `creationSeconds` (epoch seconds). */
export const windowStartMs = (creationSeconds: number, windowSeconds: number) => Math.floor(creationSeconds / windowSeconds) * windowSeconds * 1000;

/** `window` of an event, from its start. */
export const windowOf = (startMs: number, windowSeconds: number) => ({
  start: new Date(startMs).toISOString(),
  end: new Date(startMs + windowSeconds * 1000).toISOString(),
});
