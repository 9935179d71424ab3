/**
 * GET /feed/aggregated: the home feed with consecutive activities of the same actor and verb on the
 * same UTC day (of their server time, the time that orders them) folded into one group. Reads
 * home-feed pages (merged with pulled authors, as GET /feed) until it has `limit` complete groups
 * — a group is complete once an item of another group follows it — or its read budget is spent.
 * The cursor is the range key of the oldest member of the page's last group, so the next page
 * starts right after it.
 */
import type { Activity } from '../model/activity.js';
import { parseRangeKey, ticksOfRangeKey } from '../model/range-key.js';
import { isoFromTicks, utcDayOf } from '../platform/clock.js';
import type { Page } from '../platform/dynamo/query.js';
import { readHomeFeed } from './feed-reading.js';

/** Activities shown per group (activityCount counts them all). */
export const GROUP_SHOWN = 5;
/** Pages of home feed read at most per aggregated page, and items per read. */
export const AGGREGATION_READS = 5;
const READ_SIZE = 100;

export interface AggregatedGroup {
  id: string;
  actor: string;
  verb: string;
  activityCount: number;
  activities: Activity[];
  from: string;
  to: string;
}

interface Building {
  key: string;
  actor: string;
  verb: string;
  count: number;
  shown: Activity[];
  newest: bigint;
  oldest: bigint;
}

const foldKey = (a: Activity) => `${a.actor}\n${a.verb}\n${utcDayOf(ticksOfRangeKey(BigInt(a.rangeKey)))}`;

/** Pure fold of newest-first activities into groups (unit-tested). */
export function foldActivities(items: readonly Activity[], into: Building[] = []): Building[] {
  for (const a of items) {
    const rk = BigInt(a.rangeKey);
    const last = into.at(-1);
    if (last && last.key === foldKey(a)) {
      last.count++;
      if (last.shown.length < GROUP_SHOWN) last.shown.push(a);
      last.oldest = rk;
    } else {
      into.push({ key: foldKey(a), actor: a.actor, verb: a.verb, count: 1, shown: [a], newest: rk, oldest: rk });
    }
  }
  return into;
}

const toGroup = (b: Building): AggregatedGroup => ({
  id: b.newest.toString(),
  actor: b.actor,
  verb: b.verb,
  activityCount: b.count,
  activities: b.shown,
  from: isoFromTicks(ticksOfRangeKey(b.oldest)),
  to: isoFromTicks(ticksOfRangeKey(b.newest)),
});

export async function readAggregatedFeed(owner: string, req: { limit: number; before?: bigint }): Promise<Page<AggregatedGroup, string>> {
  const building: Building[] = [];
  let cursor = req.before;
  let more = true;
  for (let read = 0; read < AGGREGATION_READS && more && building.length <= req.limit; read++) {
    const page = await readHomeFeed(owner, { limit: READ_SIZE, before: cursor });
    foldActivities(page.items, building);
    more = page.last !== undefined;
    if (page.last !== undefined) cursor = parseRangeKey(page.last);
  }
  // With limit + 1 groups the first `limit` are complete. Otherwise the feed ended (all complete)
  // or the budget ran out (the last group may continue on the next page).
  const groups = building.slice(0, req.limit);
  const ended = building.length <= req.limit && !more;
  const last = groups.at(-1);
  return { items: groups.map(toGroup), last: ended || !last ? undefined : last.oldest.toString() };
}
