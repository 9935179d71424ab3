/**
 * Waiting for work to be done, not for a while: on a stack whose handlers run in this process
 * (support/own-stack.ts), these resolve once a function has finished invocations holding the
 * records asked for, without reporting them failed. Set them up before the request that causes
 * the work.
 */
import type { DynamoDBRecord, SQSBatchResponse, SQSRecord } from 'aws-lambda';
import type { FunctionId } from '../../lib/defs/index.js';
import { tapInvocations } from '../../local/handlers.js';

type AnyRecord = SQSRecord | DynamoDBRecord;
const idOf = (record: AnyRecord) => ('messageId' in record ? record.messageId : (record.dynamodb?.SequenceNumber ?? ''));

/** Resolves once `count` records matching `match` were handled by `fn` (any function when undefined). */
export function recordsHandled(fn: FunctionId | undefined, match: (record: AnyRecord) => boolean, count = 1): Promise<void> {
  let done = 0;
  return new Promise((resolve) => {
    const remove = tapInvocations((invoked, event) => {
      if (fn !== undefined && invoked !== fn) return;
      const mine = ((event as { Records?: AnyRecord[] }).Records ?? []).filter((record) => {
        try {
          return match(record);
        } catch {
          return false;
        }
      });
      if (mine.length === 0) return;
      return (outcome) => {
        if (!('result' in outcome)) return; // the whole batch failed: it comes back
        const failed = new Set(((outcome.result as SQSBatchResponse | undefined)?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        done += mine.filter((record) => !failed.has(idOf(record))).length;
        if (done >= count) {
          remove();
          resolve();
        }
      };
    });
  });
}

/** Resolves once a job of `kind` (and `match`) was done by a worker. */
export function jobDone(kind: string, match: (job: Record<string, unknown>) => boolean = () => true): Promise<void> {
  return recordsHandled(undefined, (record) => {
    if (!('body' in record)) return false;
    const job = JSON.parse(record.body) as Record<string, unknown>;
    return job.kind === kind && match(job);
  });
}
