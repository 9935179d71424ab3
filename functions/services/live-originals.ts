/**
 * "Is this original still live": the checks that keep a DELETE from leaving orphan copies. A job
 * that writes copies (fanout, backfill, unpull) checks after its writes and takes back the copies
 * of posts deleted meanwhile — the retract may already have passed that feed.
 */
import { isVisibleOriginal } from '../model/timeline-item.js';
import { getOriginalsAndOwnCopies } from '../stores/feed-store.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * For each (author, rk): whether the original is there and visible (not marked deleted, not
 * expired), and — asked with `ownCopy` / `pulled` — whether the author's own copy exists and
 * whether the author is pulled: one read for a fan-out batch's pages.
 */
export async function liveWithOwnCopies(
  keys: readonly { author: string; rk: bigint; ownCopy: boolean; pulled?: boolean }[],
): Promise<{ live: boolean; ownCopy: boolean; pulled: boolean }[]> {
  const now = nowSeconds();
  return (await getOriginalsAndOwnCopies(keys)).map(({ original, ownCopy, pulled }) => ({ live: isVisibleOriginal(original, now), ownCopy, pulled }));
}

/** Of these (author, rk), those no longer live (deleted meanwhile): one read for a fan-out batch's re-check. */
export async function notLive<K extends { author: string; rk: bigint }>(keys: readonly K[]): Promise<K[]> {
  if (keys.length === 0) return [];
  const checks = await liveWithOwnCopies(keys.map((k) => ({ author: k.author, rk: k.rk, ownCopy: false })));
  return keys.filter((_, i) => !checks[i]!.live);
}

/** Of the given originals of `author`, the rks that are no longer live (deleted meanwhile). */
export async function noLongerLive(author: string, rks: readonly bigint[]): Promise<bigint[]> {
  return (await notLive(rks.map((rk) => ({ author, rk })))).map((k) => k.rk);
}
