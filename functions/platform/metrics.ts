/**
 * One Powertools Metrics instance per process (EMF on stdout in Lambda; CloudWatch turns the lines
 * into metrics without an API call). Handlers flush it at the end of each invocation.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { metricNames, metricNamespace } from '../../lib/defs/metrics.js';

export const metrics = new Metrics({ namespace: metricNamespace, serviceName: 'tickfeed' });

/** A fan-out page finished `lagMs` after its post was written (see metricNames.fanoutLag). */
export function recordFanoutLag(lagMs: number): void {
  metrics.addMetric(metricNames.fanoutLag, MetricUnit.Milliseconds, Math.max(0, lagMs));
}

/** A job of `lane` finished `latencyMs` after it was enqueued. */
export function recordJobLatency(latencyMs: number): void {
  metrics.addMetric(metricNames.jobLatency, MetricUnit.Milliseconds, Math.max(0, latencyMs));
}

/** A lane batch's oldest job waited `waitedMs` in its queue (see metricNames.queueWait). */
export function recordQueueWait(waitedMs: number): void {
  metrics.addMetric(metricNames.queueWait, MetricUnit.Milliseconds, Math.max(0, waitedMs));
}

/** `count` jobs were handed to the backlog lane (see metricNames.backlogged). */
export function recordBacklogged(count: number): void {
  metrics.addMetric(metricNames.backlogged, MetricUnit.Count, count);
}

/** A data-model migration read `items` items (one page of one segment). */
export function recordMigrationProgress(items: number, segmentDone: boolean): void {
  metrics.addMetric(metricNames.migrationItems, MetricUnit.Count, items);
  if (segmentDone) metrics.addMetric(metricNames.migrationSegmentsDone, MetricUnit.Count, 1);
}

/** A migration job failed (alarmed: lib/constructs/alarms.ts). */
export function recordMigrationFailure(): void {
  metrics.addMetric(metricNames.migrationFailures, MetricUnit.Count, 1);
}
