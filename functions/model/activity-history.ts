/**
 * An edited activity's earlier versions, partition `v#<activityId>` of the feed table, range key =
 * the version number: the newest first is a descending Query, and an entry's key is known without a
 * read — the edit that makes version n writes entry n−1 and drops entry n−1−HISTORY_KEEP, so at
 * most HISTORY_KEEP are kept. An entry is the original's fields as they were (the version it was,
 * when that version was made), and `replacedAt`: when the edit that replaced it was made.
 * Erased with the activity (purge) and with its author (erase), like comments (`c#<activityId>`).
 */
import { feedPartitionPrefix } from '../../lib/defs/key-prefixes.js';
import { type Activity, toActivity } from './activity.js';
import { parseActivityId } from './activity-id.js';
import { versionOf } from './timeline-item.js';

const PREFIX = feedPartitionPrefix.history;

/** Earlier versions kept per activity. */
export const HISTORY_KEEP = 20;

export const historyPartition = (activityId: string) => `${PREFIX}${activityId}`;
export const historyKey = (activityId: string, version: number) => ({ pk: historyPartition(activityId), rk: BigInt(version) });

/** The entry that keeps `original` (as stored before an edit made at `replacedAt`). */
export function historyEntry(original: Record<string, unknown>, replacedAt: string): Record<string, unknown> {
  const { pk: _pk, rk: _rk, expiresAt: _e, deletedAt: _d, ...fields } = original;
  const id = String(original.id);
  return { ...fields, ...historyKey(id, versionOf(original)), version: versionOf(original), replacedAt };
}

/** A history page's cursor key: a version (decimal, no leading zero). */
export const isHistoryCursor = (key: string): boolean => /^[1-9]\d{0,8}$/.test(key);

/** The version an edit to `nextVersion` drops from the history, if there is one to drop. */
export function droppedVersion(nextVersion: number): number | undefined {
  const dropped = nextVersion - 1 - HISTORY_KEEP;
  return dropped >= 1 ? dropped : undefined;
}

/** An earlier version on the wire: the activity as it was, and when it was replaced. */
export type ActivityVersion = Activity & { replacedAt: string };

export function toActivityVersion(entry: Record<string, unknown>): ActivityVersion {
  const key = parseActivityId(String(entry.id));
  return { ...toActivity({ ...entry, rk: key?.rk ?? 0n }), replacedAt: String(entry.replacedAt) };
}
