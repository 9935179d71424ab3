/**
 * Reader activity: who gets a copy of a post (FANOUT_ACTIVE_WINDOW). Two attributes, both server
 * ticks (Numbers):
 *   followers entry  `activeUntil`  the follower reads until at least then: a post made later gets
 *                                   no copy in their feed. Absent: always copied (an entry written
 *                                   before this model, or by a follow since the last stamp).
 *   home-feed head   `activeUntil`  the bound last stamped on EVERY entry of the reader's follows
 *                                   (model/feed-head.ts), so it is ≤ each stamped entry's bound:
 *                                   posts after it may be missing from the stored feed. Absent:
 *                                   never stamped, nothing missing.
 * A push tag follower's entry (`tagfollowers#<tag>` / `<user>`) carries `activeUntil` as a
 * followers entry does, with the same meaning; the stamp moves it with the rest.
 * A stamping job (services/reader-activity/) moves both: entries first, the head last, and only
 * ever up — so a head never claims more than its entries hold. Whether a bound reaches a post is
 * the copy rule's (model/copy-rule.ts boundReaches).
 */
import { newerThanBound, ticksOfRangeKey } from './range-key.js';

/**
 * The instant a fan-out page (a post's, a tag's) asks each follower's bound to reach for a copy of
 * the post at `rk`: the post's own (a late page still copies to whoever was reading then), or
 * undefined while the window is `off` (every follower gets one). The window's length does not
 * matter here: it went into each bound when the reader read.
 */
export const copyCutoffOf = (rk: bigint, windowOn: boolean): bigint | undefined => (windowOn ? ticksOfRangeKey(rk) : undefined);

/**
 * The instant from which the stored feed may lack posts (the head's bound, passed), or undefined
 * while the reader is active: a read then merges their followees' posts made since (at rk below
 * `missingFromRk`).
 */
export const missingSince = (headUntil: bigint | undefined, nowTicks: bigint): bigint | undefined =>
  headUntil !== undefined && headUntil < nowTicks ? headUntil : undefined;

/** The rk bound below which (newer than `since`) a returning reader's followees' posts are merged. */
export const missingFromRk = (since: bigint): bigint => newerThanBound(since);

/**
 * Where a returning reader's copies of a push-followed tag stopped: the head's bound — or the
 * follow, if later (a tag follow brings no post made before it, as for a reader who never left).
 */
export const tagMissingSince = (since: bigint, followedAt: bigint): bigint => (followedAt > since ? followedAt : since);

/**
 * Whether a read at `nowTicks` should ask for a stamp: the reader's bound is missing, passed, or
 * within half a window of passing (so one who reads at least every half window is never without
 * copies, and is stamped at most once per half window). `windowTicks` undefined (`off`): whenever
 * a bound is left from a window set before — the stamp removes the bounds (and writes back what a
 * passed one skipped), so an `off` deployment ends with none.
 */
export function stampDue(headUntil: bigint | undefined, nowTicks: bigint, windowTicks: bigint | undefined): boolean {
  if (windowTicks === undefined) return headUntil !== undefined;
  return headUntil === undefined || headUntil - nowTicks < windowTicks / 2n;
}

/** The longest a function instance waits before asking again for one reader's stamp (its job takes seconds). */
export const ASK_AGAIN_MAX_MS = 60_000;

/**
 * How long an instance waits before asking again for the same reader's stamp: a quarter of the
 * window, at most ASK_AGAIN_MAX_MS (a minute also with `off`). A read finds the stamp due with half a
 * window left: asking again after a quarter leaves a re-asked job the other quarter to raise the
 * bound before it passes — so a reader who reads at least every quarter window keeps getting
 * copies, whatever the window's length (a fixed minute let a 15 s window pass between asks).
 */
export const askAgainMs = (windowTicks: bigint | undefined): number =>
  windowTicks === undefined ? ASK_AGAIN_MAX_MS : Math.min(ASK_AGAIN_MAX_MS, Number(windowTicks / 4_000_000n));

/** Whether an instance that last asked for this reader's stamp at `lastAskMs` (undefined: never) may ask again at `nowMs`. */
export const mayAskAgain = (lastAskMs: number | undefined, nowMs: number, windowTicks: bigint | undefined): boolean =>
  lastAskMs === undefined || nowMs - lastAskMs >= askAgainMs(windowTicks);

/** The bound a stamp at `nowTicks` writes (undefined with `off`: the stamp removes the bounds). */
export const stampBound = (nowTicks: bigint, windowTicks: bigint | undefined): bigint | undefined =>
  windowTicks === undefined ? undefined : nowTicks + windowTicks;

/**
 * Where `reader` falls in a spread, in [0, 1): by their id (FNV-1a, then murmur3's finalizer, since
 * FNV alone leaves ids that differ in their last characters, as generated ones do, close together in
 * its high bits), the same for the same reader.
 */
function readerShare(reader: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < reader.length; i++) hash = Math.imul(hash ^ reader.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) / 2 ** 32;
}

/** The spread as restamps may use it: at most an eighth of the window, and SQS's 15 minutes. */
const spreadCapMs = (spreadMs: number, windowTicks: bigint | undefined): number =>
  Math.min(windowTicks === undefined ? spreadMs : Math.min(spreadMs, Number(windowTicks / 8_000_000n)), 900_000);

/**
 * How long a reader's restamp (nothing missing: only bounds to raise) waits before it runs, in
 * seconds: a fixed share of the spread, by the reader's id, so a cohort that reads at once stamps
 * over the spread, not in one burst, and the same reader always waits the same. The spread is at
 * most an eighth of the window and SQS's 15 minutes: asked with up to half a window left, the
 * restamp usually runs before the bound passes. If it passes first (a reader asked again late),
 * stamp.ts finds where copies stopped from the head and writes back what was missed — from the
 * background lane; meanwhile their reads merge it.
 */
export function restampDelaySeconds(reader: string, spreadMs: number | undefined, windowTicks: bigint | undefined): number {
  if (spreadMs === undefined) return 0;
  return Math.floor((readerShare(reader) * spreadCapMs(spreadMs, windowTicks)) / 1000);
}

/** A never-stamped reader's turn to ask is one of this many equal parts of every spread. */
export const FIRST_ASK_TURNS = 8;

/**
 * Whether a never-stamped reader (no bound on their head) may ask for their first stamp at `nowMs`:
 * only in their turn, an eighth of every spread (STAMP_SPREAD, 15 minutes: about two minutes in
 * fifteen), at an offset by their id. The day activity-aware fan-out is deployed every reader is
 * never-stamped, and each one's first read would queue a restamp: one more request on a read that
 * otherwise makes one, for every reader at once. In turns, at most an eighth of that cohort asks at
 * any time, and a reader who reads through a spread asks within it. Waiting costs nothing a reader
 * sees: a never-stamped reader's entries carry no bound, so every post is copied to them (as with
 * `off`) until their stamp. A reader with a bound is never held back (it may pass); nor is anyone
 * with the spread `off`.
 */
export function firstAskOpen(reader: string, nowMs: number, spreadMs: number | undefined, windowTicks: bigint | undefined): boolean {
  if (spreadMs === undefined) return true;
  const spread = spreadCapMs(spreadMs, windowTicks);
  const into = (((nowMs - readerShare(reader) * spread) % spread) + spread) % spread;
  return into < spread / FIRST_ASK_TURNS;
}
