/**
 * The realtime catch-up (GET /realtime/missed): what a client that was away missed in its home
 * feed. `since=` is not enough — a late fan-out (or a backfill) writes a copy with its post's rk,
 * below keys the client already holds — so every copy records when it was written
 * (model/feed-copy.ts WRITTEN_ATTRIBUTE), `feed.item` carries that as `seq`, and the client asks
 * for the copies written after the largest `seq` it saw, from the top of its feed down to the
 * oldest key it holds. Cost: one Query per READ_PAGE items of that range (what re-reading it
 * costs); the head (rk 0) and copies past the age bound are outside the key condition.
 */
import { HEAD_RK } from '../../model/feed-head.js';
import { type Activity, toActivity } from '../../model/activity.js';
import { nowTicks } from '../../platform/clock.js';
import type { Page } from '../../platform/dynamo/query.js';
import { copiesWrittenAfter } from '../../stores/feed-store.js';
import { ageBound } from '../retention/bounds.js';
import { homeFeedPolicy } from '../retention/retention-policy.js';

/** Items read per page (a few KB each at most: well under a Query's 1 MB). */
export const READ_PAGE = 200;

const homeFeedTtlMs = () => homeFeedPolicy().ttlMs;

export async function missedCopies(owner: string, req: { after: bigint; until: bigint; before?: bigint }): Promise<Page<Activity, string>> {
  const bound = ageBound(nowTicks(), homeFeedTtlMs());
  const below = bound === undefined || req.until + 1n < bound ? req.until + 1n : bound;
  const page = await copiesWrittenAfter(owner, req.after, { after: req.before ?? HEAD_RK, below, limit: READ_PAGE });
  return { items: page.items.map(toActivity), last: page.last === undefined ? undefined : String(page.last) };
}
