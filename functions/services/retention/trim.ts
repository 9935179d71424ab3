/**
 * Home-feed trims: paid per trim, never per copy. No counter is kept; instead about 1 in every N
 * copies written start a trim attempt (decided by a hash of the copy's key, so a redelivered job
 * decides the same way — Stream-Framework's trim chance per insert, made deterministic).
 *
 * A trim deletes by key range: it finds the N-th newest copy K and deletes every copy older than
 * K, so whatever else deletes at the same moment (a retract, an unfollow cleanup, TTL), the trim
 * never removes one of the N newest it saw and a feed is never taken below what it should hold.
 *
 * Reads proportional to what it deletes: the feed's head remembers `top`, the newest copy when the
 * last trim ran. The copies above it are the ones written since; an attempt reads only those, and
 * trims once they number N + margin. Then K is among them (the N-th), and everything older — the
 * rest of them and the N the last trim kept — goes: it reads N + margin + what it deletes, and
 * deletes ≥ N + margin. So a trim reads < 2× what it deletes. A feed is eligible at 2N + margin
 * copies and cut at the next draw, on average N copies later: it holds about 2.3N on average,
 * 3.25N before a typical trim, more after an unlucky run of draws (each draw still cuts to N). Copies that land below `top` (a follow's backfill of older posts)
 * make their attempt read from the feed's newest instead, up to 2N + margin.
 * Span: copies older than the newest minus FEED_MAX_SPAN go in the same pass.
 * Ownership: home feeds hold copies only; the head (rk 0) is never in a trimmed range.
 */
import { copyKeys, deleteCopies, readHead, recordTrimTop } from '../../stores/feed-store.js';
import { spanBound } from './bounds.js';
import type { HomeFeedPolicy } from './retention-policy.js';

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
  /** Keys read (the copies written since the last trim, then what was deleted). */
  readonly examined: number;
  /** The N-th newest copy, when the count policy cut the feed there. */
  readonly kept?: bigint;
}

/**
 * One trim attempt of `owner`'s home feed. `oldestWritten`: the oldest copy whose write started
 * it (a copy below `top` makes the attempt look at the whole top of the feed). Safe to run
 * concurrently with anything.
 */
export async function trimHomeFeed(owner: string, policy: HomeFeedPolicy, oldestWritten?: bigint): Promise<TrimResult> {
  const n = policy.maxItems;
  if (n === undefined && policy.maxSpanMs === undefined) return { deleted: 0, examined: 0 };
  const head = await readHead(owner);
  const top = oldestWritten !== undefined && head.top !== undefined && oldestWritten > head.top ? undefined : head.top;
  const want = n === undefined ? 1 : top === undefined ? 2 * n + policy.margin : n + policy.margin;
  // Newest first: the copies written since the last trim (every copy, without a `top`).
  const region = await copyKeys(owner, { below: top, limit: want });
  let cut: bigint | undefined; // every copy with rk ≥ cut goes
  let kept: bigint | undefined;
  if (n !== undefined && region.length >= want) {
    kept = region[n - 1]!;
    cut = kept + 1n;
  }
  const span = region[0] === undefined ? undefined : spanBound(region[0], policy.maxSpanMs);
  if (span !== undefined && (cut === undefined || span < cut)) cut = span;
  if (cut === undefined) return { deleted: 0, examined: region.length };

  const inHand = region.filter((rk) => rk >= cut);
  const lastRead = region.at(-1)!;
  const older = await copyKeys(owner, { after: lastRead >= cut ? lastRead : cut - 1n, limit: Number.POSITIVE_INFINITY });
  const doomed = [...inHand, ...older];
  await deleteCopies(doomed.map((rk) => ({ owner, rk })));
  if (kept !== undefined) await recordTrimTop(owner, region[0]!);
  return { deleted: doomed.length, examined: region.length + older.length, ...(kept === undefined ? {} : { kept }) };
}
