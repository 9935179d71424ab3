/**
 * Trending tags: the top tags by distinct authors in the current UTC hour (`1h`) or day (`24h`).
 *
 * Why not the stream rollups (seed 004)? They count events per minute and combine minutes by SUM:
 * an author who uses a tag in many minutes (or many posts) would count many times, and distinct
 * counts do not add up across minutes. Distinct authors need a per-author marker; with it, exactness
 * under retry is a transaction: the tag fan-out's first page (fanout.ts) writes, per bucket, the
 * (bucket, tag, author) marker only if absent and bumps the (tag, bucket) counter in the same
 * transaction — a retried or redelivered job finds its marker and adds nothing, and a spammer's
 * thousand posts make one author. It then raises the tag in the bucket's small top list (at most
 * TOP_KEPT tags, model/trend.ts) from the counter's value — also on a redelivery, so a crash between
 * the two leaves nothing behind. Counts only rise, so racing or late raises keep the largest.
 *
 * Reading a window is one GetItem (the bucket's top list). Buckets are clock periods: `1h` at 10:05
 * covers 10:00–10:05. Cost per tagged post and tag: two transactions of two items and two
 * strongly consistent reads; a top-list write only when the tag's count rises inside the top.
 * The top list of a bucket is one item: tens of thousands of new (tag, author) pairs per second
 * would want it split by a suffix, as DESIGN.md says of hot partitions.
 */
import { type TagKey, tagKeyOf } from '../../model/tags.js';
import { raiseInTop, rankTop, TREND_KEEP_SECONDS, TREND_WINDOWS, type TrendWindow, trendBucket } from '../../model/trend.js';
import { AGAIN, RETRY, retrying } from '../../platform/retry.js';
import { countTrendUse, getTopList, putTopList } from '../../stores/tag-store.js';

const expiresAtOf = (endsMs: number) => Math.floor(endsMs / 1000) + TREND_KEEP_SECONDS;

/** Count `author`'s use of the tag `key` at `ticks` (the post's server time) in every window's bucket. */
export async function countTrend(author: string, key: TagKey, storedTags: unknown, ticks: bigint): Promise<void> {
  const written = (Array.isArray(storedTags) ? (storedTags as unknown[]) : []).find((t): t is string => typeof t === 'string' && tagKeyOf(t) === key) ?? key;
  const ms = Number(ticks / 1_000_000n);
  for (const window of TREND_WINDOWS) {
    const { bucket, endsMs } = trendBucket(window, ms);
    const n = await countTrendUse(bucket, key, written, author, expiresAtOf(endsMs));
    await raiseTop(bucket, key, n, written, expiresAtOf(endsMs));
  }
}

async function raiseTop(bucket: string, key: TagKey, n: number, written: string, expiresAt: number): Promise<void> {
  await retrying(`trend top list ${bucket}`, RETRY.step, async () => {
    const { top, version } = await getTopList(bucket, true);
    const next = raiseInTop(top, key, n, written);
    if (next === undefined) return undefined;
    return (await putTopList(bucket, next, version, expiresAt)) ? undefined : AGAIN;
  });
}

export interface Trending {
  readonly window: TrendWindow;
  /** Start of the bucket counted (RFC 3339). */
  readonly from: string;
  readonly tags: { tag: string; authors: number }[];
}

/** The top `limit` tags of `window` now: one read. */
export async function readTrending(window: TrendWindow, limit: number, nowMs = Date.now()): Promise<Trending> {
  const { bucket, from } = trendBucket(window, nowMs);
  const { top } = await getTopList(bucket);
  return {
    window,
    from,
    tags: rankTop(top)
      .slice(0, limit)
      .map((e) => ({ tag: e.tag, authors: e.authors })),
  };
}
