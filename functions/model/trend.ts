/**
 * Trending tags, counted by distinct authors per clock bucket (pure). Stats table:
 *   `trendm#<bucket>#<tag>` / `<hash(author)>` marker: the author used the tag in the bucket (written
 *                                          once: attribute_not_exists), `expiresAt`
 *   `trendc#<tag>` / `<bucket>`            counter: `n` distinct authors, `tag` as first written
 *                                          there; bumped in the marker's transaction, so only a
 *                                          first insert counts — a retry or a redelivery adds nothing
 *   `trendtop#<bucket>` / `top`            the bucket's top list: `top` (map tag key → [n, tag as
 *                                          written]) of at most TOP_KEPT tags, `v` its version
 * Buckets: `h<YYYY-MM-DDTHH>` (a UTC hour: window=1h) and `d<YYYY-MM-DD>` (a UTC day: window=24h).
 * Reading a window is one GetItem of its top list.
 */

import { shortHash } from './short-hash.js';
import type { TagKey } from './tags.js';

export type TrendWindow = '1h' | '24h';
export const TREND_WINDOWS: readonly TrendWindow[] = ['1h', '24h'];

/** Tags a bucket's top list keeps. */
export const TOP_KEPT = 50;
/** How long trend items outlive their bucket (seconds). */
export const TREND_KEEP_SECONDS = 2 * 86_400;

/** The bucket of `window` holding the instant `ms`, and when it started. */
export function trendBucket(window: TrendWindow, ms: number): { bucket: string; from: string; endsMs: number } {
  const iso = new Date(ms).toISOString();
  if (window === '1h') {
    const from = `${iso.slice(0, 13)}:00:00.000Z`;
    return { bucket: `h${iso.slice(0, 13)}`, from, endsMs: Date.parse(from) + 3_600_000 };
  }
  const from = `${iso.slice(0, 10)}T00:00:00.000Z`;
  return { bucket: `d${iso.slice(0, 10)}`, from, endsMs: Date.parse(from) + 86_400_000 };
}

/** The author as a hash: an erase need not find these (they expire with their period). */
export const trendMarkerKey = (bucket: string, key: TagKey, author: string) => ({ pk: `trendm#${bucket}#${key}`, sk: shortHash(author) });
export const trendCounterKey = (key: TagKey, bucket: string) => ({ pk: `trendc#${key}`, sk: bucket });
export const trendTopKey = (bucket: string) => ({ pk: `trendtop#${bucket}`, sk: 'top' });

/** A top list entry: tag key → [distinct authors, the tag as first written]. */
export type TopList = Record<string, readonly [number, string]>;

export function parseTopList(item: Record<string, unknown> | undefined): { top: TopList; version: number } {
  const raw = (item?.top ?? {}) as Record<string, unknown>;
  const top: TopList = {};
  for (const [key, v] of Object.entries(raw)) if (Array.isArray(v)) top[key] = [Number(String(v[0])), String(v[1])];
  return { top, version: item?.v === undefined ? 0 : Number(String(item.v)) };
}

/**
 * The top list with `tag` at `n` authors, or undefined when nothing changes: counts only rise (a late
 * or repeated update with a smaller n is ignored), and a list over TOP_KEPT drops its smallest —
 * which a tag can later re-enter with its full count, since the counter keeps counting.
 */
export function raiseInTop(top: TopList, key: TagKey, n: number, written: string): TopList | undefined {
  const current = top[key];
  if (current !== undefined && current[0] >= n) return undefined;
  const next: TopList = { ...top, [key]: [n, current?.[1] ?? written] };
  const ranked = rankTop(next);
  if (ranked.length <= TOP_KEPT) return next;
  const kept = ranked.slice(0, TOP_KEPT);
  if (!kept.some((e) => e.key === key)) return undefined; // not enough to enter
  return Object.fromEntries(kept.map((e) => [e.key, [e.authors, e.tag] as const]));
}

/** The list ranked: most distinct authors first, ties by key. */
export function rankTop(top: TopList): { key: string; tag: string; authors: number }[] {
  return Object.entries(top)
    .map(([key, [authors, tag]]) => ({ key, tag, authors }))
    .sort((a, b) => b.authors - a.authors || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
