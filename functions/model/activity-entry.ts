/**
 * Recent-activity entries in the stats table: one per counted activity, in the actor's partition
 * under its window bucket. The entry is also the activity's CLAIM: written, conditioned on not
 * existing, in the same transaction as the rollup rows the activity feeds (services/rollups/apply.ts).
 *   pk = activity#<userId>   sk = <bucket start ISO>#<eventID>
 */
import { isoMs } from './rollup-row.js';

export const activityPartition = (userId: string) => `activity#${userId}`;

/** An activity's window entry and claim: derived from its stream record alone (actor, time, eventID). */
export const activityEntryKey = (userId: string, bucketStartMs: number, eventId: string) => ({
  pk: activityPartition(userId),
  sk: `${isoMs(bucketStartMs)}#${eventId}`,
});

/**
 * Access pattern "a user's entries in buckets starting in [fromMs, toMs)": `sk BETWEEN lo AND hi`.
 * Every sk of bucket b is `iso(b)#…`: after iso(b), and before iso(toMs) for every b < toMs (an
 * entry of bucket toMs sorts after hi), so the upper bound keeps future buckets out of the read.
 */
export const activityEntriesIn = (fromMs: number, toMs: number) => ({ lo: isoMs(fromMs), hi: isoMs(toMs) });

/** The entry (and claim) of one activity; kept until `expiresAtMs`. */
export function activityEntryItem(e: { userId: string; bucketStartMs: number; eventId: string; chunkId: string; expiresAtMs: number }) {
  return {
    ...activityEntryKey(e.userId, e.bucketStartMs, e.eventId),
    kind: 'activity',
    userId: e.userId,
    start: isoMs(e.bucketStartMs),
    count: 1,
    chunk: e.chunkId,
    expiresAt: Math.ceil(e.expiresAtMs / 1000),
  };
}

/** Attributes a window read needs. */
export const ACTIVITY_ENTRY_PROJECTION = { ProjectionExpression: '#s, #c', ExpressionAttributeNames: { '#s': 'start', '#c': 'count' } };

export const parseActivityEntry = (item: Record<string, unknown>) => ({
  startMs: Date.parse(String(item.start)),
  count: Number(String(item.count)),
});
