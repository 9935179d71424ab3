/**
 * Merging the sources of one home-feed page (pure, unit-tested): the stored home feed and the
 * timelines of the pulled authors the reader follows (hybrid fan-out: authors with ≥
 * FANOUT_PULL_THRESHOLD followers are not copied; their posts are merged at read time).
 *
 * Each source was queried with the same key range and Limit; items are merged by rk (a global
 * time order) and deduplicated by rk (a copy written before the author was pulled and the same
 * original, or copies an unpull is writing). No gaps: a source that may hold more than it returned
 * has a frontier (its last evaluated rk); the merged page keeps only items on the near side of the
 * tightest frontier, and for newest-first pages the next cursor is the last kept item (or that
 * frontier). A single source is the same rules with one frontier.
 */
import { type Activity, toActivity } from '../model/activity.js';
import { rkOf } from '../model/range-key.js';
import { versionOf } from '../model/timeline-item.js';
import type { Page } from '../platform/dynamo/query.js';

/** A feed page: `last` is the next page's cursor (a range key), absent when nothing more remains (the API's `lastRangeKey`: http/feed-page.ts). */
export type ActivityPage = Page<Activity, string>;

export interface SourceResult {
  /** In query order: ascending rk for newest-first pages, descending for `since`. */
  readonly items: Record<string, unknown>[];
  /** rk up to which this source is complete, when it may hold more. */
  readonly frontier?: bigint;
}

/** Pure merge of per-source results into one page (unit-testable). */
export function mergeSources(results: readonly SourceResult[], req: { readonly limit: number; readonly since?: bigint }): ActivityPage {
  const sinceMode = req.since !== undefined;
  const byRk = new Map<bigint, Record<string, unknown>>();
  for (const r of results) {
    for (const item of r.items) {
      // One item per post; where two sources hold it, the newer version (a copy written before its
      // author was pulled is not updated by the author's edits; the timeline is).
      const held = byRk.get(rkOf(item.rk));
      if (!held || versionOf(item) > versionOf(held)) byRk.set(rkOf(item.rk), item);
    }
  }
  const frontiers = results.map((r) => r.frontier).filter((f): f is bigint => f !== undefined);
  // Newest-first pages move to larger rk: safe up to the smallest frontier. `since` pages move to
  // smaller rk from the cursor: safe down to the largest frontier.
  const frontier = frontiers.length === 0 ? undefined : frontiers.reduce((a, b) => (sinceMode ? (a > b ? a : b) : a < b ? a : b));
  let rks = [...byRk.keys()].filter((rk) => frontier === undefined || (sinceMode ? rk >= frontier : rk <= frontier));
  rks.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (sinceMode) {
    rks = rks.slice(-req.limit); // the items closest to the cursor, newest first
    const items = rks.map((rk) => toActivity(byRk.get(rk)!));
    return { items, last: items.at(-1)?.rangeKey };
  }
  const kept = rks.slice(0, req.limit);
  const items = kept.map((rk) => toActivity(byRk.get(rk)!));
  if (rks.length > req.limit) return { items, last: String(kept.at(-1)!) };
  return { items, last: frontier === undefined ? undefined : String(frontier) };
}

/**
 * A source's result from its Query (asked for `limit + 1` items, or one more where the home feed's
 * head may be among them — the caller removes it first): at most `limit` items, and a frontier
 * when the source may hold more.
 */
export function sourceOf(items: Record<string, unknown>[], last: bigint | undefined, limit: number): SourceResult {
  if (items.length > limit) {
    const kept = items.slice(0, limit);
    return { items: kept, frontier: rkOf(kept.at(-1)!.rk) };
  }
  // The Limit was reached on filtered items (timeline tombstones) or on the head: more may follow.
  if (last !== undefined && last !== 0n) return { items, frontier: last };
  return { items };
}
