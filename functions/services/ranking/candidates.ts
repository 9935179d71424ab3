/**
 * A ranked feed's candidate sources, each read as the reader's chronological feeds read it — so a
 * ranking shows nothing those feeds would not: `following` pages GET /feed's reader
 * (feed-reading.ts: the stored home feed, pulled authors and tags merged), `tags` GET
 * /tags/{tag}/activities' (hidden authors left out), `authors` a timeline as the reader may see
 * it (an author who blocked the reader gives nothing). Each source stops at its `limit` or at the
 * first post older than its window, pages of up to SOURCE_PAGE items, newest first; a post two
 * sources give counts once. (`popular`, posts with N reactions anywhere, needs an index by
 * reaction count that tickfeed does not keep: not offered.)
 */
import type { Activity } from '../../model/activity.js';
import { NotFoundError } from '../../model/domain-errors.js';
import { ticksOfRangeKey } from '../../model/range-key.js';
import { tagKeyOf } from '../../model/tags.js';
import { type ActivityPage, type PageRequest, readHomeFeed, readTimeline } from '../feed-reading.js';
import { readTagFeed } from '../tags/tag-feed.js';

export type SourceSpec =
  | { readonly type: 'following'; readonly windowHours: number; readonly limit: number }
  | { readonly type: 'tags'; readonly tags: readonly string[]; readonly windowHours: number; readonly limit: number }
  | { readonly type: 'authors'; readonly authors: readonly string[]; readonly windowHours: number; readonly limit: number };

/** Items per read of a source: the feeds' own largest page. */
const SOURCE_PAGE = 100;
const HOUR_TICKS = 3_600_000_000_000n;

/** Up to `limit` items of one feed newer than `oldest` ticks, page after page. */
async function collect(read: (req: PageRequest) => Promise<ActivityPage>, limit: number, oldest: bigint): Promise<Activity[]> {
  const out: Activity[] = [];
  let before: bigint | undefined;
  while (out.length < limit) {
    const page = await read({ limit: Math.min(SOURCE_PAGE, limit - out.length), ...(before !== undefined && { before }) });
    for (const a of page.items) {
      if (ticksOfRangeKey(BigInt(a.rangeKey)) < oldest) return out;
      out.push(a);
    }
    if (page.last === undefined || page.items.length === 0) return out;
    before = BigInt(page.last);
  }
  return out;
}

/** Split `limit` over `n` feeds read in parallel (each at least 1). */
const share = (limit: number, n: number) => Math.max(1, Math.floor(limit / n));

async function readSource(reader: string, s: SourceSpec, now: bigint): Promise<Activity[]> {
  const oldest = now - BigInt(s.windowHours) * HOUR_TICKS;
  switch (s.type) {
    case 'following':
      return collect((req) => readHomeFeed(reader, req), s.limit, oldest);
    case 'tags':
      return (await Promise.all(s.tags.map((t) => collect((req) => readTagFeed(reader, tagKeyOf(t), req), share(s.limit, s.tags.length), oldest)))).flat();
    case 'authors':
      return (
        await Promise.all(
          s.authors.map((author) =>
            collect((req) => readTimeline(author, req, reader), share(s.limit, s.authors.length), oldest).catch((e: unknown) => {
              if (e instanceof NotFoundError) return []; // the author blocked the reader
              throw e;
            }),
          ),
        )
      ).flat();
  }
}

/** Every source's candidates, each post once (the newest version where two sources hold it). */
export async function readCandidates(reader: string, sources: readonly SourceSpec[], now: bigint): Promise<Activity[]> {
  const all = (await Promise.all(sources.map((s) => readSource(reader, s, now)))).flat();
  const byId = new Map<string, Activity>();
  for (const a of all) {
    const held = byId.get(a.id);
    if (held === undefined || a.version > held.version) byId.set(a.id, a);
  }
  return [...byId.values()];
}
