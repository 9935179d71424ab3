/**
 * Runs migration steps: a parallel Scan of the step's table, each segment page by page — plan
 * every item (and, once per page, each partition an item asks for), apply the writes, then save
 * the segment's checkpoint (the key to start the next page from). A run stopped anywhere (a
 * crash, a kill, a Lambda timeout) resumes after the last checkpointed page; the pages it redoes
 * plan writes that are already there (the plans are idempotent), so nothing is counted twice in
 * the data. When every segment of the step is done, the version item moves to the step's model.
 *
 * Beside live traffic: the API keeps serving while it runs. A plan writes only what the older
 * model lacked, conditionally where the API might write the same item meanwhile, so a write the
 * API made is never overwritten (docs/deploy.md, "Upgrading").
 */
import { tables } from '../../../lib/defs/tables.js';
import { DATA_MODEL_PARTITION, DATA_MODEL_VERSION, OLDEST_MIGRATABLE_VERSION, type SegmentCheckpoint } from '../../model/data-model.js';
import { nowTicks } from '../../platform/clock.js';
import type { Item } from '../../platform/dynamo/query.js';
import {
  applyWrites,
  readCheckpoints,
  readDataModelVersion,
  readPartition,
  saveCheckpoint,
  scanPage,
  writeDataModelVersion,
} from '../../stores/migration-store.js';
import type { Job } from '../jobs/jobs.js';
import type { MigrationStep, MigrationWrite } from './step.js';
import { MIGRATION_STEPS } from './steps.js';

export interface SegmentProgress extends SegmentCheckpoint {
  readonly step: MigrationStep;
  /** Items the page just finished read. */
  readonly pageItems: number;
}

export interface RunOptions {
  /** Parallel Scan segments of each step (fixed for a step's run: its checkpoints are per segment). */
  readonly totalSegments: number;
  /** Only these segments (a worker given one); default all, run side by side. */
  readonly segments?: readonly number[];
  /** Items per Scan page (the checkpoint grain); a page is also capped at 1 MB by DynamoDB. */
  readonly pageSize?: number;
  /** Asked between pages: true stops the run there (a Lambda near its timeout), resumable. */
  readonly shouldStop?: () => boolean;
  /** After each page's checkpoint is saved. */
  readonly onPage?: (progress: SegmentProgress) => void | Promise<void>;
  /** The clock plans stamp with (tests inject it). */
  readonly clock?: () => bigint;
  /**
   * Queues the steps' repair jobs (MigrationStep.jobsAfter) where the API serves during the run
   * (AWS: the maintenance lane's run, `npm run migrate -- --outputs`); a local run before the API
   * starts has nothing to repair and passes none.
   */
  readonly enqueue?: (jobs: readonly Job[]) => Promise<void>;
}

export type RunOutcome =
  | { readonly state: 'current'; readonly version: number }
  | { readonly state: 'migrated'; readonly from: number; readonly version: number; readonly totals: Totals }
  | { readonly state: 'stopped'; readonly from: number; readonly step: MigrationStep; readonly totals: Totals };

export interface Totals {
  scanned: number;
  changed: number;
  writes: number;
}

/** The version the tables are at: the version item, or — without one — the oldest this code migrates. */
export async function storedVersion(): Promise<number> {
  return (await readDataModelVersion()) ?? OLDEST_MIGRATABLE_VERSION;
}

/** The steps from `version` to this code's model, in order. */
export function stepsFrom(version: number): MigrationStep[] {
  const steps: MigrationStep[] = [];
  for (let v = version; v < DATA_MODEL_VERSION; v++) {
    const step = MIGRATION_STEPS.find((s) => s.from === v);
    if (!step) throw new Error(`no migration from data model v${v} (the oldest this release migrates is v${OLDEST_MIGRATABLE_VERSION})`);
    steps.push(step);
  }
  return steps;
}

/** Brings the tables to this code's model (or as far as `shouldStop` lets it; run again to resume). */
export async function migrateToCurrent(opts: RunOptions): Promise<RunOutcome> {
  const from = await storedVersion();
  if (from >= DATA_MODEL_VERSION) return { state: 'current', version: from };
  const totals: Totals = { scanned: 0, changed: 0, writes: 0 };
  for (const step of stepsFrom(from)) {
    const { done } = await runStep(step, opts, totals);
    if (!done) return { state: 'stopped', from, step, totals };
    if (opts.segments === undefined) await writeDataModelVersion(step.to);
  }
  return { state: 'migrated', from, version: DATA_MODEL_VERSION, totals };
}

/**
 * Runs `opts.segments` (default all) of `step` from their checkpoints. `done` when every segment
 * of the step is (then the caller may move the version item); `checkpoints`, every segment's.
 */
export async function runStep(
  step: MigrationStep,
  opts: RunOptions,
  totals: Totals = { scanned: 0, changed: 0, writes: 0 },
): Promise<{ done: boolean; checkpoints: SegmentCheckpoint[] }> {
  const saved = new Map((await readCheckpoints(step.to)).map((c) => [c.segment, c]));
  const mine = opts.segments ?? Array.from({ length: opts.totalSegments }, (_, s) => s);
  await Promise.all(mine.map((segment) => runSegment(step, segment, opts, saved.get(segment), totals)));
  const checkpoints = await readCheckpoints(step.to);
  return { done: checkpoints.length >= opts.totalSegments && checkpoints.every((c) => c.done), checkpoints };
}

async function runSegment(step: MigrationStep, segment: number, opts: RunOptions, saved: SegmentCheckpoint | undefined, totals: Totals): Promise<void> {
  let checkpoint: SegmentCheckpoint = saved ?? { segment, totalSegments: opts.totalSegments, done: false, scanned: 0, changed: 0, writes: 0 };
  if (checkpoint.totalSegments !== opts.totalSegments) {
    throw new Error(`the v${step.to} migration runs in ${checkpoint.totalSegments} segments; asked to run it in ${opts.totalSegments}`);
  }
  const pkName = tables[step.table].partitionKey.name;
  while (!checkpoint.done && !opts.shouldStop?.()) {
    const page = await scanPage(step.table, segment, opts.totalSegments, checkpoint.lastKey, opts.pageSize ?? 500);
    const planned = planPage(step, page.items, pkName, (opts.clock ?? nowTicks)());
    const applied = await applyPlanned(step, planned.writes, pkName);
    const repairs = opts.enqueue && step.jobsAfter ? page.items.flatMap((item) => step.jobsAfter!(item)) : [];
    if (repairs.length) await opts.enqueue!(repairs);
    const changed = planned.changed + applied.changed;
    checkpoint = {
      segment,
      totalSegments: opts.totalSegments,
      lastKey: page.last,
      done: page.last === undefined,
      scanned: checkpoint.scanned + page.items.length,
      changed: checkpoint.changed + changed,
      writes: checkpoint.writes + applied.sent,
    };
    if (!(await saveCheckpoint(step.to, checkpoint))) return; // another runner finished this segment
    totals.scanned += page.items.length;
    totals.changed += changed;
    totals.writes += applied.sent;
    await opts.onPage?.({ ...checkpoint, step, pageItems: page.items.length });
  }
}

interface PlannedPage {
  /** The items' own plans: independent, applied together. */
  readonly items: MigrationWrite[];
  /** The partitions items asked for: each planned from a fresh read, and applied in order. */
  readonly partitions: string[];
}

/** Rounds of re-planning a partition whose writes a live change overtook (a failed condition). */
const PARTITION_ROUNDS = 5;

async function applyPlanned(step: MigrationStep, planned: PlannedPage, pkName: string): Promise<{ sent: number; skipped: number; changed: number }> {
  const results = await Promise.all([
    planned.items.length ? applyWrites(step.table, planned.items) : { sent: 0, skipped: 0 },
    ...planned.partitions.map((pk) => migratePartition(step, pkName, pk)),
  ]);
  const changed = planned.partitions.length ? results.slice(1).filter((r) => r.sent > 0).length : 0;
  return { ...results.reduce((a, b) => ({ sent: a.sent + b.sent, skipped: a.skipped + b.skipped })), changed };
}

/**
 * Plans a partition from a strongly consistent read and applies the plan in order. A write the
 * API overtook (its condition failed) leaves the partition part-way: it is read and planned again
 * until the plan is empty (bounded; past it, the job fails and comes back).
 */
async function migratePartition(step: MigrationStep, pkName: string, pk: string): Promise<{ sent: number; skipped: number }> {
  let total = { sent: 0, skipped: 0 };
  for (let round = 0; round < PARTITION_ROUNDS; round++) {
    const writes = step.planPartition?.(pk, await readPartition(step.table, pkName, pk)) ?? [];
    if (writes.length === 0) return total;
    const applied = await applyWrites(step.table, writes, { ordered: true });
    total = { sent: total.sent + applied.sent, skipped: total.skipped + applied.skipped };
    if (applied.skipped === 0) return total;
  }
  throw new Error(`partition ${pk} still changes under the migration after ${PARTITION_ROUNDS} rounds`);
}

/** The page's writes: each item's plan, and the partitions its items ask for (each once). */
function planPage(step: MigrationStep, items: readonly Item[], pkName: string, nowTicks: bigint): { writes: PlannedPage; changed: number } {
  const writes = { items: [] as MigrationWrite[], partitions: new Set<string>() };
  let changed = 0;
  for (const item of items) {
    if (item[pkName] === DATA_MODEL_PARTITION) continue;
    const planned = step.planItem(item, { nowTicks });
    if (planned.length) changed++;
    writes.items.push(...planned);
    const partition = step.partitionOf?.(item);
    if (partition !== undefined) writes.partitions.add(partition);
  }
  return { writes: { items: writes.items, partitions: [...writes.partitions] }, changed };
}
