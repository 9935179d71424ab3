/**
 * Feed-table stream → rollup rows and recent-activity buckets (issue 5). Counts each original
 * activity exactly once (see core/rollups/apply.ts); on a failed write reports the first activity
 * not yet counted, so Lambda retries from there (earlier records are done; later ones that did get
 * written are recognised by their claims).
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { readConfig, readWindowConfig } from '../../lib/defs/config.js';
import { logger } from '../platform/logger.js';
import { applyActivities } from '../services/rollups/apply.js';
import { activityOf, type PlanOptions } from '../services/rollups/plan.js';

const settings = {
  spec: readConfig('ROLLUPS'),
  rollupTtlMs: readConfig('ROLLUP_TTL'),
  partitions: readConfig('ROLLUP_PARTITIONS'),
  window: readWindowConfig(),
};

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const activities = event.Records.map(activityOf).filter((a) => a !== undefined);
  const opts: PlanOptions = { ...settings, nowMs: Date.now() };
  const result = await applyActivities(activities, opts);
  logger.debug('rollup batch', {
    records: event.Records.length,
    activities: activities.length,
    chunks: result.chunks,
    rows: result.rows,
    alreadyCounted: result.alreadyCounted,
  });
  if (!result.failedAt) return { batchItemFailures: [] };
  logger.error('rollup batch incomplete; retrying from the first uncounted activity', { seq: result.failedAt.seq });
  return { batchItemFailures: [{ itemIdentifier: result.failedAt.seq }] };
};
