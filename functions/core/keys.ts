/**
 * The key model: the one module that builds partition/sort keys and names access patterns.
 * Handlers and stores call these; nobody else concatenates key strings.
 *
 * Range keys (feed table `rk`, a DynamoDB Number):
 *   rk = (MAX − ticks) × 10^12 + discriminator
 * MAX = 2^63−1, ticks = ns since epoch, discriminator = 12 random digits fixed when the activity
 * is created. Ascending rk = newest first. Two activities with equal ticks differ in the low
 * digits and both survive (in a stable order); every copy of one activity carries the same rk.
 * 19 + 12 = 31 digits, inside DynamoDB's 38-digit Number precision. Always `bigint` in code and
 * a decimal string on the wire.
 */
import { randomInt } from 'node:crypto';

export const MAX_TICKS = 2n ** 63n - 1n;
export const DISCRIMINATOR_DIGITS = 12;
const DISCRIMINATOR_SPAN = 10n ** BigInt(DISCRIMINATOR_DIGITS);
/** Largest possible range key (ticks = 0, discriminator all nines). */
export const MAX_RANGE_KEY = MAX_TICKS * DISCRIMINATOR_SPAN + DISCRIMINATOR_SPAN - 1n;

export function rangeKeyOf(ticks: bigint, discriminator: bigint): bigint {
  if (ticks < 0n || ticks > MAX_TICKS) throw new RangeError(`ticks out of range: ${ticks}`);
  if (discriminator < 0n || discriminator >= DISCRIMINATOR_SPAN) throw new RangeError('bad discriminator');
  return (MAX_TICKS - ticks) * DISCRIMINATOR_SPAN + discriminator;
}

export function ticksOfRangeKey(rk: bigint): bigint {
  return MAX_TICKS - rk / DISCRIMINATOR_SPAN;
}

/** A fresh discriminator: 12 random digits (randomInt's bound is 2^48 > 10^12). */
export function newDiscriminator(): bigint {
  return BigInt(randomInt(0, 10 ** DISCRIMINATOR_DIGITS));
}

/** Parse a range key from the wire (cursor, id part). Undefined if it is not a valid key. */
export function parseRangeKey(text: string): bigint | undefined {
  if (!/^\d{1,31}$/.test(text)) return undefined;
  const rk = BigInt(text);
  return rk <= MAX_RANGE_KEY ? rk : undefined;
}

// ---- feed table ---------------------------------------------------------------------------

/** Longest user id (UTF-8 bytes) a key may carry: DynamoDB allows 2,048 for a partition key. */
export const MAX_USER_ID_BYTES = 1024;

/**
 * Activity id = `<rk>.<base64url(actor)>`: the original's full key (pk = actor, rk), so GET and
 * DELETE find it with one GetItem/UpdateItem and no index. Opaque to clients.
 * @example activityIdOf('alice', 9223372035079123456000123456789n) // '9223372035079123456000123456789.YWxpY2U'
 */
export function activityIdOf(actor: string, rk: bigint): string {
  return `${rk}.${Buffer.from(actor, 'utf8').toString('base64url')}`;
}

/** Decode an activity id; undefined for anything `activityIdOf` cannot have produced. */
export function parseActivityId(id: string): { actor: string; rk: bigint } | undefined {
  const dot = id.indexOf('.');
  if (dot <= 0) return undefined;
  const rkText = id.slice(0, dot);
  const rk = parseRangeKey(rkText);
  const encoded = id.slice(dot + 1);
  if (rk === undefined || rk.toString() !== rkText || !/^[A-Za-z0-9_-]{1,1400}$/.test(encoded)) return undefined;
  const actor = Buffer.from(encoded, 'base64url').toString('utf8');
  // Canonical form only: rejects non-UTF-8 bytes, padding variants and trailing garbage bits.
  if (actor === '' || Buffer.from(actor, 'utf8').toString('base64url') !== encoded) return undefined;
  if (Buffer.byteLength(actor, 'utf8') > MAX_USER_ID_BYTES) return undefined;
  return { actor, rk };
}


/** A feed item: pk = feed owner's user id, rk = the activity's range key. */
export const feedItemKey = (owner: string, rk: bigint) => ({ pk: owner, rk });

// ---- graph table --------------------------------------------------------------------------

/** A user's profile counters (followers/following). */
export const profileKey = (userId: string) => ({ pk: `user#${userId}`, sk: 'profile' });

/** Marker that makes `foreignId` idempotent per actor; holds the original activity's rk. */
export const foreignIdKey = (actor: string, foreignId: string) => ({ pk: `foreign#${actor}`, sk: foreignId });

/** Per-feed retention state: the maintained item count (only when retention by count is on). */
export const feedMetaKey = (owner: string) => ({ pk: `feed#${owner}`, sk: 'meta' });

// ---- stats table --------------------------------------------------------------------------
//
// Rollup rows: one per (series, minute, chunk). A chunk is a run of activities from one stream
// batch written in one transaction; `chunkId` is the eventID of its first activity, unique among
// applied chunks because every activity is claimed exactly once (see rollups/apply.ts).
//   pk = rollup#<series>#<UTC day>#<split>   sk = <minute ISO>#<chunkId>
// The day in the partition key bounds a partition's size; `split` (0..ROLLUP_PARTITIONS-1, a hash
// of the chunk id) spreads a hot series over several partitions, and reads query them all.
//
// Activity entries: one per counted activity, in the actor's partition under its window bucket.
// The entry is also the activity's CLAIM: it is written, conditioned on not existing, in the same
// transaction as the rows the activity feeds (see rollups/apply.ts).
//   pk = activity#<userId>   sk = <bucket start ISO>#<eventID>

const DAY_MS = 86_400_000;
/** Fixed-width ISO 8601 (`2026-11-22T18:30:00.000Z`): sorts as text the way it sorts as time. */
export const isoMs = (ms: number) => new Date(ms).toISOString();

function splitOf(chunkId: string, partitions: number): number {
  let h = 0;
  for (let i = 0; i < chunkId.length; i++) h = (h * 31 + chunkId.charCodeAt(i)) >>> 0;
  return h % partitions;
}

export const rollupPartition = (series: string, dayStartMs: number, split: number) =>
  `rollup#${series}#${isoMs(dayStartMs).slice(0, 10)}#${split}`;

export function rollupRowKey(series: string, minuteMs: number, chunkId: string, partitions: number) {
  const dayStart = Math.floor(minuteMs / DAY_MS) * DAY_MS;
  return { pk: rollupPartition(series, dayStart, splitOf(chunkId, partitions)), sk: `${isoMs(minuteMs)}#${chunkId}` };
}

/**
 * Access pattern "rows of a series in [fromMs, toMs)" inside one day partition: `sk BETWEEN lo AND
 * hi`. Every sk of minute m is `iso(m)#…`, which sorts after iso(m) and before iso(m + 1 minute).
 */
export const rollupRowRange = (fromMs: number, toMs: number) => ({ lo: isoMs(fromMs), hi: isoMs(toMs) });

export const activityPartition = (userId: string) => `activity#${userId}`;

/** An activity's window entry and claim: derived from its stream record alone (actor, time, eventID). */
export const activityEntryKey = (userId: string, bucketStartMs: number, eventId: string) => ({
  pk: activityPartition(userId),
  sk: `${isoMs(bucketStartMs)}#${eventId}`,
});

/** Access pattern "a user's entries in buckets starting at or after fromMs": `sk >= lo`. */
export const activityEntriesFrom = (fromMs: number) => ({ lo: isoMs(fromMs) });

// ---- follow graph (graph table) -------------------------------------------------------------
//
// Each follow is four kinds of item, written in one transaction (see graph/follows.ts):
//   edge       pk = follow#<follower>     sk = <followee>             state, order, pending flags
//   followers  pk = followers#<followee>  sk = <order>#<follower>     newest follow first
//   following  pk = following#<follower>  sk = <order>#<followee>     newest follow first
//   pulled     pk = pulled#<follower>     sk = <followee>             only while the followee is pulled
// `order` = MAX − follow ticks, zero-padded: ascending sk = newest first, like feed range keys.
// The `pulled` set is what a feed read merges from (k small Queries), so it is kept per follower
// and written/deleted with the edge, or by the pull/unpull jobs when a followee crosses the
// threshold.

const ORDER_DIGITS = 19;

/** Sort prefix of a follow made at `ticks`: ascending = newest first. */
export const followOrder = (ticks: bigint): string => (MAX_TICKS - ticks).toString().padStart(ORDER_DIGITS, '0');

export const followEdgeKey = (follower: string, followee: string) => ({ pk: `follow#${follower}`, sk: followee });

export const followersPartition = (followee: string) => `followers#${followee}`;
export const followingPartition = (follower: string) => `following#${follower}`;

export const followerListKey = (followee: string, order: string, follower: string) => ({
  pk: followersPartition(followee),
  sk: `${order}#${follower}`,
});
export const followingListKey = (follower: string, order: string, followee: string) => ({
  pk: followingPartition(follower),
  sk: `${order}#${followee}`,
});

/** The user id in a followers/following list sort key (`<order>#<userId>`; ids may contain `#`). */
export function userOfListSortKey(sk: string): string {
  return sk.slice(sk.indexOf('#') + 1);
}

export const pulledPartition = (follower: string) => `pulled#${follower}`;
export const pulledKey = (follower: string, followee: string) => ({ pk: pulledPartition(follower), sk: followee });

/** Access pattern "one page of a follow list after cursor": the cursor is the last sort key seen. */
export const listCursorKey = (partition: string, sk: string) => ({ pk: partition, sk });
