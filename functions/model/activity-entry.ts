/**
 * Recent-activity entries in the stats table: how many activities one user did in one window
 * bucket, as counted by one rollup segment (a run of one stream shard's records aggregated in a
 * tumbling window, model/rollup-segment.ts). A bucket's count is the sum of its entries; a retried
 * write of a segment rewrites its own entries (same key, same count).
 *   pk = activity#<userId>   sk = <bucket start ISO>#<segmentId>
 */
import { isoMs } from './rollup-row.js';

export const activityPartition = (userId: string) => `activity#${userId}`;

/** A segment's entry for one user and bucket. */
export const activityEntryKey = (userId: string, bucketStartMs: number, segmentId: string) => ({
  pk: activityPartition(userId),
  sk: `${isoMs(bucketStartMs)}#${segmentId}`,
});

/**
 * Access pattern "a user's entries in buckets starting in [fromMs, toMs)": `sk BETWEEN lo AND hi`.
 * Every sk of bucket b is `iso(b)#…`: after iso(b), and before iso(toMs) for every b < toMs (an
 * entry of bucket toMs sorts after hi), so the upper bound keeps future buckets out of the read.
 */
export const activityEntriesIn = (fromMs: number, toMs: number) => ({ lo: isoMs(fromMs), hi: isoMs(toMs) });

/** `count` activities of `userId` in one bucket, counted by one segment; kept until `expiresAtMs`. */
export function activityEntryItem(e: { userId: string; bucketStartMs: number; segmentId: string; count: number; expiresAtMs: number }) {
  return {
    ...activityEntryKey(e.userId, e.bucketStartMs, e.segmentId),
    kind: 'activity',
    userId: e.userId,
    start: isoMs(e.bucketStartMs),
    count: e.count,
    expiresAt: Math.ceil(e.expiresAtMs / 1000),
  };
}

/** Attributes a window read needs. */
export const ACTIVITY_ENTRY_PROJECTION = { ProjectionExpression: '#s, #c', ExpressionAttributeNames: { '#s': 'start', '#c': 'count' } };

export const parseActivityEntry = (item: Record<string, unknown>) => ({
  startMs: Date.parse(String(item.start)),
  count: Number(String(item.count)),
});
