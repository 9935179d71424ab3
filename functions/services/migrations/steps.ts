/**
 * Every data-model step this release can run, oldest first. A change to what is stored adds a
 * step here (from the previous DATA_MODEL_VERSION, model/data-model.ts) with its plans, and a test
 * that starts from data the previous release wrote through its own API (test/fixtures/).
 */
import type { MigrationStep } from './step.js';
import { planControlCheck, planErasureCopies, planPulledShards, repairJobsOfPulled } from './v3/graph-items.js';
import { notificationPartitionOf, planNotificationPartition } from './v3/notification-partition.js';

/** v2 (the release of 2026-11-23) → v3: everything a v3 check or count reads that v2 never wrote. */
const toV3: MigrationStep = {
  from: 2,
  to: 3,
  table: 'graph',
  summary: 'mute/block check entries, notification kinds and hashed claims, pulled flags on follower shards, erase-mark copies',
  planItem: (item, context) => [...planControlCheck(item), ...planPulledShards(item, context), ...planErasureCopies(item)],
  partitionOf: notificationPartitionOf,
  planPartition: (_pk, items) => planNotificationPartition(_pk, items),
  jobsAfter: repairJobsOfPulled,
};

export const MIGRATION_STEPS: readonly MigrationStep[] = [toV3];
