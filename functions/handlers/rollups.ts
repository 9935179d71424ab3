/**
 * Feed-table stream → rollup rows and recent-activity entries once per tumbling window
 * per shard (the event source's `tumblingWindowSeconds`): invocations of a window fold their
 * records into the state Lambda carries; the final one writes it (services/rollups/apply-windows.ts). A
 * failed write throws: Lambda retries the invocation with the same state, which writes the same
 * items again. An event without a window (a mapping configured without one) is written a segment
 * per record.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { setting, windowSetting } from '../../lib/defs/config.js';
import { type DynamoDBStreamWindowEvent, type DynamoDBStreamWindowResponse, isWindowEvent } from '../../lib/defs/stream-window.js';
import { logger } from '../platform/logger.js';
import { applyRecords, applyWindowEvent } from '../services/rollups/apply-windows.js';
import type { PlanOptions } from '../services/rollups/plan.js';

const settings = () => ({
  spec: setting('ROLLUPS'),
  rollupTtlMs: setting('ROLLUP_TTL'),
  partitions: setting('ROLLUP_PARTITIONS'),
  window: windowSetting(),
});

export async function handler(event: DynamoDBStreamWindowEvent): Promise<DynamoDBStreamWindowResponse>;
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse>;
export async function handler(event: DynamoDBStreamEvent | DynamoDBStreamWindowEvent): Promise<DynamoDBBatchResponse | DynamoDBStreamWindowResponse> {
  const opts: PlanOptions = { ...settings(), nowMs: Date.now() };
  if (!isWindowEvent(event)) {
    const written = await applyRecords(event.Records, opts);
    logger.debug('rollup records (no window)', { records: event.Records.length, ...written });
    return { batchItemFailures: [] };
  }
  const { state, written } = await applyWindowEvent(event, opts);
  if (written.segments || event.isFinalInvokeForWindow) {
    logger.debug('rollup window', {
      shard: event.shardId,
      window: event.window.start,
      final: event.isFinalInvokeForWindow,
      records: event.Records.length,
      ...written,
    });
  }
  return { state, batchItemFailures: [] };
}
