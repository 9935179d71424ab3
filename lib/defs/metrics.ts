/**
 * Custom metrics (CloudWatch embedded metric format, written by Powertools Metrics): names shared by
 * the functions that emit them and the alarms that watch them.
 */
export const metricNamespace = 'tickfeed';

export const metricNames = {
  /** Per job: milliseconds from its enqueue (SQS SentTimestamp) to done. Dimension `lane`. */
  jobLatency: 'JobLatency',
  /** Per lane batch: milliseconds its oldest job waited in the lane's queue — how far behind the lane is. Dimension `lane`. */
  queueWait: 'QueueWait',
  /** Per fanout batch: jobs handed to the backlog lane unrun, having waited past FANOUT_BACKLOG_AFTER (services/jobs/backlog.ts). */
  backlogged: 'Backlogged',
  /** Per fan-out page: milliseconds from the post's write to that page's last copy written. The maximum over a post's pages is its fan-out lag. */
  fanoutLag: 'FanoutLag',
  /** Per migration page: items it read (a data-model migration's progress; dimension `lane`). */
  migrationItems: 'MigrationItems',
  /** Per migration segment that finished (the step is done when all its segments are). */
  migrationSegmentsDone: 'MigrationSegmentsDone',
  /** Per migration job that failed (it comes back; after maxReceiveCount, the maintenance DLQ). */
  migrationFailures: 'MigrationFailures',
} as const;

/** Alarm when the worst fan-out lag in a minute exceeds this (users expect a post in seconds). */
export const fanoutLagAlarmMs = 10_000;
