/**
 * Home-feed trims: paid per trim, never per copy. No counter is kept; instead, about 4 in every N
 * copies written start a trim attempt (decided by a hash of the copy's key, so a redelivered job
 * decides the same way — Stream-Framework's trim chance per insert, made deterministic).
 *
 * A trim deletes by key range: it finds the N-th newest copy K′ and deletes every copy older than
 * it, so whatever else is deleting at the same moment (a retract, an unfollow cleanup, TTL), the
 * trim never removes one of the N newest it saw. To keep its reads proportional to what it
 * deletes, the feed's head remembers the last trim's K (then the N-th newest): the copies above K
 * are the ones written since. An attempt reads only those; it trims once they number N + margin
 * (then K′ is among them, and everything below K′ — the rest of them plus the N below K — goes).
 * Reads: the N + margin it looked at plus what it deletes; deletes ≥ margin + N. So a feed holds
 * at most about 2N + margin copies before a trim, and a trim reads < 2× what it deletes.
 * Span: copies older than the newest minus FEED_MAX_SPAN go in the same pass.
 * Ownership: home feeds hold copies only; the head (rk 0) is never in a trimmed range.
 */
import { deleteCopies, copyKeys, readHead, recordTrimBoundary } from '../../stores/feed-store.js';
import { spanBound } from './bounds.js';
import type { HomeFeedPolicy } from './policy.js';

/** Whether writing the copy (owner, rk) starts a trim attempt of `owner`'s feed. */
export function startsTrim(owner: string, rk: bigint, policy: HomeFeedPolicy): boolean {
  if (policy.attemptChance <= 0) return false;
  if (policy.attemptChance >= 1) return true;
  // FNV-1a over the key: uniform enough, stable across processes.
  let h = 0x811c9dc5;
  const text = `${owner}\u0000${rk}`;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h / 2 ** 32 < policy.attemptChance;
}

export interface TrimResult {
  /** Copies deleted. */
  readonly deleted: number;
  /** Keys read to decide (the region above the boundary; deletions are read too). */
  readonly examined: number;
  /** The N-th newest copy, when the count policy cut the feed. */
  readonly boundary?: bigint;
}

/** One trim attempt of `owner`'s home feed under `policy`. Safe to run concurrently with anything. */
export async function trimHomeFeed(owner: string, policy: HomeFeedPolicy): Promise<TrimResult> {
  const n = policy.maxItems;
  if (n === undefined && policy.maxSpanMs === undefined) return { deleted: 0, examined: 0 };
  const { boundary } = await readHead(owner);
  // Copies written since the last trim (all copies before the first), newest first.
  const want = n === undefined ? 1 : boundary === undefined ? 2 * n + policy.margin : n + policy.margin;
  const region = await copyKeys(owner, { below: boundary, limit: want });
  let cut: bigint | undefined; // delete every copy with rk ≥ cut
  let newBoundary: bigint | undefined;
  if (n !== undefined && region.length >= want) {
    newBoundary = region[n - 1]!;
    cut = newBoundary + 1n;
  }
  const newest = region[0];
  const span = newest === undefined ? undefined : spanBound(newest, policy.maxSpanMs);
  if (span !== undefined && (cut === undefined || span < cut)) cut = span;
  if (cut === undefined) return { deleted: 0, examined: region.length };

  const inHand = region.filter((rk) => rk >= cut);
  const lastRead = region.at(-1);
  // Everything older than what the region read returned (or than the cut, if that is further).
  const scanFrom = lastRead !== undefined && lastRead >= cut - 1n ? lastRead : cut - 1n;
  const older = await copyKeys(owner, { after: scanFrom, limit: Number.POSITIVE_INFINITY });
  const doomed = [...inHand, ...older];
  await deleteCopies(doomed.map((rk) => ({ owner, rk })));
  if (newBoundary !== undefined) await recordTrimBoundary(owner, newBoundary);
  return { deleted: doomed.length, examined: region.length + older.length, boundary: newBoundary };
}
