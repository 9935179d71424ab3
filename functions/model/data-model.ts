/**
 * Which data model a deployment's tables hold, kept with the data (graph table, `meta#data-model`):
 *   `version`             `{ version }`: the model every item has been brought to
 *   `run#<to>#<segment>`  a migration's checkpoint per parallel-Scan segment: the last key it
 *                         finished (`lastKey`, the Scan's key as a map: a Number key stays a
 *                         Number), `done`, and its counts — so a run stopped
 *                         anywhere resumes after the last page it completed
 * No user id starts with `meta#`' partition (user data lives under prefixed partitions: `user#`,
 * `ctl#`, `n#` …), and every migration plan leaves this partition alone.
 *
 * History: v1 (until 2026-11-23 03:56) one feed partition per user; v2 (release of 2026-11-23)
 * timelines apart from home feeds; v3 mute/block check entries, notification kinds and hashed
 * claims, follower-count shards carrying `pulled`, erase-mark copies per shard.
 */
export const DATA_MODEL_VERSION = 3;
/** The oldest model a migration starts from (v1 data is refused: see docs/deploy.md). */
export const OLDEST_MIGRATABLE_VERSION = 2;

export const DATA_MODEL_PARTITION = 'meta#data-model';
export const dataModelKey = () => ({ pk: DATA_MODEL_PARTITION, sk: 'version' });
export const migrationCheckpointKey = (to: number, segment: number) => ({
  pk: DATA_MODEL_PARTITION,
  sk: `run#${to}#${String(segment).padStart(3, '0')}`,
});
export const migrationCheckpointPrefix = (to: number) => `run#${to}#`;

export interface SegmentCheckpoint {
  readonly segment: number;
  readonly totalSegments: number;
  /** The ExclusiveStartKey of the next page (undefined: start of the segment). */
  readonly lastKey?: Record<string, unknown>;
  readonly done: boolean;
  readonly scanned: number;
  readonly changed: number;
  readonly writes: number;
}

const num = (v: unknown): number => Number(String(v ?? 0));

export function parseDataModelVersion(item: Record<string, unknown> | undefined): number | undefined {
  return item ? num(item.version) : undefined;
}

export function checkpointItem(to: number, c: SegmentCheckpoint): Record<string, unknown> {
  return {
    ...migrationCheckpointKey(to, c.segment),
    totalSegments: c.totalSegments,
    ...(c.lastKey ? { lastKey: c.lastKey } : {}),
    done: c.done,
    scanned: c.scanned,
    changed: c.changed,
    writes: c.writes,
  };
}

export function parseCheckpoint(item: Record<string, unknown>): SegmentCheckpoint {
  const sk = String(item.sk);
  return {
    segment: Number(sk.slice(sk.lastIndexOf('#') + 1)),
    totalSegments: num(item.totalSegments),
    lastKey: item.lastKey as Record<string, unknown> | undefined,
    done: item.done === true,
    scanned: num(item.scanned),
    changed: num(item.changed),
    writes: num(item.writes),
  };
}
