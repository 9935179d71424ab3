/**
 * Where the model test's jobs come from, on a stack without pollers: every job a service sends is
 * taken off the handlers' SQS client (a middleware answers the send as accepted, nothing reaches a
 * queue; a delivery command picks any pending job in any order), and the
 * feed table's stream is read here and turned into jobs as the outbox would (jobsOfRecord). Notify
 * and purge jobs are dropped: they touch no home feed.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { DescribeStreamCommand, type DynamoDBStreamsClient, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { getRecords } from '../../../local/stream-records.js';

export interface Job {
  readonly kind: string;
  readonly [field: string]: unknown;
}
const IGNORED = new Set(['notify', 'purge']);

/**
 * A job sent with a delay is a settle re-run (CONTROL_SETTLE): it runs after the replication lag of
 * every read made before it was sent has passed. `delayedAt` keeps the simulation's logical time of
 * its send, so that delivering it moves the stale reads' floor there (dynamo-sim.ts `floor`).
 */
export const delayedAt = new WeakMap<Job, number>();

export class JobTap {
  /** Jobs sent or derived since the last `take`. */
  private sent: Job[] = [];
  /** The last sequence number read, per shard. */
  private readonly lastSeq = new Map<string, string>();

  constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly streamArn: string,
    private readonly jobsOfRecord: (r: DynamoDBRecord) => Job[],
    /** The simulation's logical time (dynamo-sim.ts markNow). */
    private readonly now: () => number,
  ) {}

  install(sqs: SQSClient): void {
    sqs.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Entries?: { Id: string; MessageBody: string; DelaySeconds?: number }[]; MessageBody?: string; DelaySeconds?: number };
        if (context.commandName === 'SendMessageBatchCommand') {
          for (const e of input.Entries ?? []) this.add(JSON.parse(e.MessageBody) as Job, e.DelaySeconds);
          const Successful = (input.Entries ?? []).map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}`, MD5OfMessageBody: '' }));
          return { output: { Successful, Failed: [], $metadata: {} }, response: {} };
        }
        if (context.commandName === 'SendMessageCommand') {
          this.add(JSON.parse(input.MessageBody!) as Job, input.DelaySeconds);
          return { output: { MessageId: 'm', $metadata: {} }, response: {} };
        }
        return next(args);
      },
      { step: 'initialize', name: 'modelJobTap', priority: 'high' },
    );
  }

  private add(job: Job, delaySeconds?: number): void {
    if (IGNORED.has(job.kind)) return;
    if (delaySeconds) delayedAt.set(job, this.now());
    this.sent.push(job);
  }

  /** Reads the stream up to its end (new shards from their start), then hands over every job since the last call. */
  async take(): Promise<Job[]> {
    const { StreamDescription } = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.streamArn }));
    // A fresh iterator after the last record seen, each time (DynamoDB Local refuses an old iterator
    // kept across an empty read as reading past the trimmed horizon).
    for (const shard of StreamDescription?.Shards ?? []) {
      const id = shard.ShardId!;
      const last = this.lastSeq.get(id);
      const it = await this.streams.send(
        new GetShardIteratorCommand({
          StreamArn: this.streamArn,
          ShardId: id,
          ...(last ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: last } : { ShardIteratorType: 'TRIM_HORIZON' }),
        }),
      );
      let at = it.ShardIterator;
      while (at) {
        const out = await getRecords(this.streams, this.streamArn, at);
        for (const r of out.records) {
          this.lastSeq.set(id, r.dynamodb!.SequenceNumber!);
          for (const job of this.jobsOfRecord(r)) this.add(job);
        }
        if (!out.records.length) break;
        at = out.nextIterator;
      }
    }
    const jobs = this.sent;
    this.sent = [];
    return jobs;
  }
}
