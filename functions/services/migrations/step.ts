/**
 * A data-model migration step: how items stored by data model `from` become what model `to`
 * reads. Each kind of item has a pure plan (the item as scanned → the writes it needs, `[]` when
 * it needs none); the runner (runner.ts) scans the table, applies the writes and checkpoints.
 * Every plan is idempotent: run on an item it already brought forward, it plans nothing, or
 * writes what is already there (a re-run after a crash, or two runners on one segment, is safe).
 */
import type { TableId } from '../../../lib/defs/tables.js';

import type { MigrationWrite, StoredItem } from '../../model/migration-write.js';
import type { Job } from '../jobs/jobs.js';

export type { ConditionCheck, ItemKey, MigrationWrite, StoredItem, WriteCondition } from '../../model/migration-write.js';

export interface PlanContext {
  /** Server ticks (ns) when the page was read: what a plan stamps as "since". */
  readonly nowTicks: bigint;
}

export interface MigrationStep {
  readonly from: number;
  readonly to: number;
  /** The table the step scans (every write it plans goes to this table too). */
  readonly table: TableId;
  /** One line for logs and docs. */
  readonly summary: string;
  /** Pure: the writes one scanned item needs (`context`: the run's clock, taken once per page). */
  planItem(item: StoredItem, context: PlanContext): readonly MigrationWrite[];
  /**
   * Items whose plan needs their whole partition: the partition key to read (one Query of every
   * page), or undefined. The runner reads it once per item that asks and calls planPartition.
   */
  partitionOf?(item: StoredItem): string | undefined;
  /** Pure: the writes a partition needs, from all its items (sort-key order). */
  planPartition?(pk: string, items: readonly StoredItem[]): readonly MigrationWrite[];
  /**
   * Pure: jobs to queue once an item's writes are applied — repairs of what the API may have done
   * with the item's older form while the migration ran (in AWS the API serves meanwhile). Queued
   * only where the runner is given a queue (RunOptions.enqueue).
   */
  jobsAfter?(item: StoredItem): readonly Job[];
}
