/**
 * Waiting for a job to be done, not for a while: on a stack whose handlers run in this process
 * (support/own-stack.ts), `jobDone(kind)` resolves once a worker has finished an invocation that
 * held a job of that kind (and `match`), without reporting that job failed. Set it up before the
 * request that causes the job.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { tapInvocations } from '../../local/handlers.js';

export function jobDone(kind: string, match: (job: Record<string, unknown>) => boolean = () => true): Promise<void> {
  return new Promise((resolve) => {
    const remove = tapInvocations((_fn, event) => {
      const mine = ((event as Partial<SQSEvent>).Records ?? []).filter((record) => {
        if (record.eventSource !== 'aws:sqs') return false;
        try {
          const job = JSON.parse(record.body) as Record<string, unknown>;
          return job.kind === kind && match(job);
        } catch {
          return false;
        }
      });
      if (mine.length === 0) return;
      return (outcome) => {
        if (!('result' in outcome)) return; // the whole batch failed: it comes back
        const failed = new Set(((outcome.result as SQSBatchResponse | undefined)?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        if (mine.some((record) => !failed.has(record.messageId))) {
          remove();
          resolve();
        }
      };
    });
  });
}
