/**
 * A job lane's SQS consumer (lib/defs/lanes.ts): runs each job (services/jobs/run.ts) and reports
 * partial batch failures, so only failed messages come back; after maxReceiveCount they move to the
 * lane's DLQ. A job that does not parse, or that belongs to another lane, fails every time and so
 * ends in the DLQ, visible, instead of being dropped or run by a worker without its grants.
 * Records each job's latency (enqueue → done) as a metric with the lane as its dimension. The jobs
 * of a kind whose runner takes a batch run together (JobRunner.runBatch): a batch's notify jobs for
 * one recipient are applied together (a follow burst: one transaction per 20 follows), and all its
 * recipients' first reads are one shared read; a batch's fanout pages share their reads too.
 * A lane with a backlog (fanout) first hands on the jobs that waited past its deadline, unrun.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { LaneId } from '../../lib/defs/lanes.js';
import { logger } from '../platform/logger.js';
import { metrics, recordJobLatency } from '../platform/metrics.js';
import type { JobRunner } from '../services/jobs/define.js';
import { assertLane, type Job, lanesOfKind, parseJob } from '../services/jobs/jobs.js';
import { runJob } from '../services/jobs/run.js';
import { runnerOfKind } from '../services/jobs/runners.js';
import { enqueueJob } from '../services/jobs/bus.js';
import { isPreLanesJob } from '../services/jobs/legacy-queue.js';
import { handOnStale } from '../services/jobs/backlog.js';

const parseOrUndefined = (r: SQSRecord): Job | undefined => {
  try {
    return parseJob(r.body);
  } catch {
    return undefined; // left to recordHandler, which fails it alone
  }
};

/**
 * The jobs of the batch that run together, by message id: those of each kind whose runner takes a
 * batch (notify: folded per recipient and applied as one batch, services/notifications/batch.ts;
 * fanout: pages sharing the reads they start and end with, services/fanout/author-fanout.ts — and told
 * which came before, so a redelivered page takes back what it may have written). Only on the
 * kind's own lanes (its tail lane too): anywhere else a job runs alone (a settle re-run), or is forwarded
 * (legacy-queue.ts) or refused (assertLane).
 */
function batchedJobs(records: readonly SQSRecord[], lane: LaneId): Map<string, Promise<void>> {
  const byRunner = new Map<JobRunner, { job: Job; record: SQSRecord }[]>();
  for (const record of records) {
    const job = parseOrUndefined(record);
    const runner = job && runnerOfKind(job.kind);
    if (!runner?.runBatch || !lanesOfKind(job!.kind).includes(lane)) continue;
    byRunner.set(runner, [...(byRunner.get(runner) ?? []), { job: job!, record }]);
  }
  const out = new Map<string, Promise<void>>();
  for (const [runner, members] of byRunner) {
    const done = runner.runBatch!(
      members.map((m) => m.job),
      members.map((m) => Number(m.record.attributes.ApproximateReceiveCount) > 1),
    );
    members.forEach((m, i) => {
      done[i]!.catch(() => undefined); // each member's recordHandler reports it
      out.set(m.record.messageId, done[i]!);
    });
  }
  return out;
}

/** Runs a job of this lane; forwards a job queued before the lanes to its own (services/jobs/legacy-queue.ts). */
async function runOrForward(job: Job, lane: LaneId): Promise<void> {
  if (!isPreLanesJob(job, lane)) return runJob(assertLane(job, lane));
  logger.info('forwarded a job queued before the lanes to its lane', { kind: job.kind });
  await enqueueJob(job);
}

export function laneHandler(lane: LaneId) {
  // Default dimensions survive each flush (plain ones are cleared with the stored metrics).
  metrics.setDefaultDimensions({ lane });

  /**
   * One invocation's record handler. Everything a batch holds — the jobs that run together, the
   * batch processor's per-batch state — lives in the call: Lambda gives each concurrent invocation
   * an instance of its own, but a module is shared by every invocation an instance (or a local
   * poller's loops) runs, so nothing of one batch may sit where another's would overwrite it.
   */
  const recordHandlerFor = (together: ReadonlyMap<string, Promise<void>>, handed: ReadonlyMap<string, Promise<void>>) =>
    async function recordHandler(record: SQSRecord): Promise<void> {
      try {
        const handedOn = handed.get(record.messageId);
        if (handedOn) return await handedOn; // its latency is the backlog's to record, when it is done
        await (together.get(record.messageId) ?? runOrForward(parseJob(record.body), lane));
        recordJobLatency(Date.now() - Number(record.attributes.SentTimestamp));
      } catch (error) {
        logger.warn('job failed', {
          lane,
          error: error as Error,
          messageId: record.messageId,
          receiveCount: record.attributes.ApproximateReceiveCount,
        });
        throw error;
      }
    };

  return async (event: SQSEvent, context?: Context) => {
    // A lane that is behind hands its stale jobs to its backlog (services/jobs/backlog.ts) and runs the fresh.
    const { run, handed } = handOnStale(event.Records, lane, Date.now());
    const recordHandler = recordHandlerFor(batchedJobs(run, lane), handed);
    try {
      return await processPartialResponse(event, recordHandler, new BatchProcessor(EventType.SQS), { context });
    } finally {
      metrics.publishStoredMetrics();
    }
  };
}
