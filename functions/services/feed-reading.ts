/**
 * Reading feeds, newest first, by range-key cursor:
 *   none        → the newest `limit` items.
 *   before=c    → `rk > c`, ascending: the `limit` items just older than c (the next page).
 *   since=c     → `rk < c`, descending: the `limit` items just newer than c (closest to the cursor),
 *                 returned newest first. A client catching up repeats `since=<items[0].rangeKey>`
 *                 until a page is not full; taking the items closest to the cursor is what leaves
 *                 no gap. rk comes from the server's clock, so a new post always sorts above what
 *                 a reader already holds.
 * Each source is asked for `limit + 1` items: the extra one says "there is more" without a second
 * Query (DynamoDB's LastEvaluatedKey is also set when a page ends exactly at the last item).
 *
 * Costs: a user timeline page is one Query. A home-feed page is one Query for a push-only reader:
 * the feed's head item (rk 0: the reader's pulled authors) comes back with every first page and
 * every `since` page that reaches the top; `before` pages use what this function instance learned
 * in the last HEAD_CACHE_MS, or read the head in parallel with the page (never in series).
 * A reader following k pulled authors pays 1 + k Queries (merged, see feed-merge.ts). A returning
 * reader (their activity bound passed: model/reader-activity.ts) pays one Query of their follows,
 * one of their followed tags, and one per followee and push-followed tag more (with one of their
 * controls if they follow tags), merged the same way, until their stamp job wrote their copies back.
 * Pulled (hot) tags add one Query each, and one of the reader's controls (tags/pulled-tags.ts).
 * A verb-filtered page (`verbs`) pays for every item it reads to find its matches (up to
 * FILTERED_PAGE in stores/feed-store.ts) and may end short, with a cursor where it stopped.
 * Retention by age is part of the key condition (free); count and span are enforced by trims
 * only, so a home feed shows what it stores: at least its N newest, about 2.3N on average between
 * trims (see retention/trim.ts).
 */
import { type FeedHead, isFeedHead, parseFeedHead } from '../model/feed-head.js';
import { authorRoadStores } from '../model/copy-rule.js';
import { missingFromRk, missingSince, tagMissingSince } from '../model/reader-activity.js';
import { nowTicks } from '../platform/clock.js';
import { perInstance } from '../platform/instance-scope.js';
import { homeFeedPageInput, type KeyRange, readHead, runPage, timelinePageInput } from '../stores/feed-store.js';
import { followeesPage } from '../stores/follow-store.js';
import { tagFollowsPage } from '../stores/tag-store.js';
import { assertNotHiddenFrom } from './controls-state.js';
import { type ActivityPage, mergeSources, sourceOf } from './feed-merge.js';
import { ageBound } from './retention/bounds.js';
import { askStampIfDue } from './reader-activity/ask.js';
import { homeFeedPolicy, timelinePolicy } from './retention/retention-policy.js';
import { tagFeedSources, type TagSource } from './tags/pulled-tags.js';
import type { TagKey } from '../model/tags.js';

export type { ActivityPage };

export interface PageRequest {
  readonly limit: number;
  readonly before?: bigint;
  readonly since?: bigint;
  /** Only these verbs (`?verbs=a,b`): a filtered Query, see stores/feed-store.ts runPage for its cost. */
  readonly verbs?: readonly string[];
}

/**
 * Bound on the pulled authors merged per read (a reader following more celebrities sees these),
 * and apart on a returning reader's followees and push-followed tags together.
 */
export const MAX_PULLED_PER_READ = 100;
/** How long a function instance trusts a reader's pulled set learned from an earlier page. */
export const HEAD_CACHE_MS = 30_000;

const ttls = () => ({ feedTtl: homeFeedPolicy().ttlMs, timelineTtl: timelinePolicy().ttlMs });

const minOf = (a: bigint | undefined, b: bigint | undefined) => (a === undefined ? b : b === undefined ? a : a < b ? a : b);

/** The key range of a page, with an exclusive retention bound and `extra` items of Limit. */
export function rangeOf(req: PageRequest, bound: bigint | undefined, extra: number): KeyRange {
  return { after: req.before, below: minOf(req.since, bound), descending: req.since !== undefined, limit: req.limit + extra };
}

/**
 * One page of `userId`'s own posts (their timeline), as `viewer` may see it: one Query — and, for
 * someone else's timeline, a GetItem in parallel: a user `userId` blocked gets 404.
 */
export async function readTimeline(userId: string, req: PageRequest, viewer: string = userId): Promise<ActivityPage> {
  const range = rangeOf(req, ageBound(nowTicks(), ttls().timelineTtl), 1);
  const [page] = await Promise.all([runPage(timelinePageInput(userId, range, req.verbs)), assertNotHiddenFrom(userId, viewer)]);
  return mergeSources([sourceOf(page.items, page.last, req.limit)], req);
}

/**
 * What a home-feed page merges besides the stored feed, as its head says: the pulled authors' and
 * pulled tags' feeds (tags/pulled-tags.ts) the reader follows, and — for a reader whose copies
 * stopped (their activity bound passed: model/reader-activity.ts) — their followees' and
 * push-followed tags' posts since then (a tag's since its follow, if later), until the stamp job
 * wrote them back.
 */
interface MergePlan {
  readonly pulled: readonly string[];
  readonly tags: readonly TagKey[];
  readonly missing?: { readonly since: bigint; readonly followees: readonly string[]; readonly tags: readonly { key: TagKey; since: bigint }[] };
}

/** Each reader's merge plan as this instance last read it (a later page skips the head's read). */
const headCacheOf = perInstance(() => new Map<string, { plan: MergePlan; at: number }>());

function remember(owner: string, plan: MergePlan): void {
  const headCache = headCacheOf();
  if (headCache.size > 10_000) headCache.clear(); // bounded memory; a miss only costs a parallel read
  headCache.set(owner, { plan, at: Date.now() });
}

/** Follows read for a returning reader's merge (one Query of their edges). */
const RETURN_FOLLOWS_READ = 1000;

/**
 * The merge plan a head calls for; asks for the reader's stamp when it is due (ask.ts). A returning
 * reader costs two more Queries here, in parallel: their follows (from their edges: muted ones left
 * out, pulled ones merged already) and their followed tags (push ones: pull ones are merged already).
 */
async function planOf(owner: string, head: FeedHead, now: bigint): Promise<MergePlan> {
  const since = missingSince(head.activeUntil, now);
  const returning = since !== undefined;
  const [follows, tagFollows] = await Promise.all([
    returning ? followeesPage(owner, RETURN_FOLLOWS_READ) : undefined,
    returning ? tagFollowsPage(owner, RETURN_FOLLOWS_READ) : undefined,
    askStampIfDue(owner, head.activeUntil, now),
  ]);
  if (since === undefined || follows === undefined || tagFollows === undefined) return { pulled: head.pulled, tags: head.tags };
  const pulled = new Set(head.pulled);
  // What the stored feed may lack: the roads that store copies (the copy rule), since the bound.
  const followees = follows.items.filter((f) => authorRoadStores({ active: true, muted: f.muted }, pulled.has(f.followee))).map((f) => f.followee);
  const tags = tagFollows.items.filter((f) => f.mode === 'push').map((f) => ({ key: f.key, since: tagMissingSince(since, f.followedAt) }));
  return { pulled: head.pulled, tags: head.tags, missing: { since, followees, tags } };
}

/** One page of `owner`'s home feed, merged with the pulled authors they follow (and, returning, their followees). */
export async function readHomeFeed(owner: string, req: PageRequest): Promise<ActivityPage> {
  const now = nowTicks();
  const bound = ageBound(now, ttls().feedTtl);
  // One more item says "there is more"; one more again where the head (rk 0) can be in range.
  const range = rangeOf(req, bound, req.before === undefined ? 2 : 1);
  const cached = headCacheOf().get(owner);
  const fresh = cached !== undefined && Date.now() - cached.at < HEAD_CACHE_MS;
  const firstPage = req.before === undefined && req.since === undefined;
  const [page, head] = await Promise.all([runPage(homeFeedPageInput(owner, range, req.verbs)), firstPage || fresh ? undefined : readHead(owner)]);
  const headItem = page.items.find(isFeedHead);
  const items = headItem ? page.items.filter((i) => i !== headItem) : page.items;
  let plan: MergePlan;
  if (headItem || head || firstPage) {
    // A first page always reaches rk 0: no head item there means no pulled authors, no bound.
    plan = await planOf(owner, headItem ? parseFeedHead(headItem) : (head ?? parseFeedHead(undefined)), now);
    remember(owner, plan);
  } else plan = cached!.plan;

  const home = sourceOf(items, page.last, req.limit);
  const timelineRange = rangeOf(req, bound, 1);
  const sources = plan.pulled.slice(0, MAX_PULLED_PER_READ).map((author) => ({ author, range: timelineRange }));
  const tagSources: TagSource[] = plan.tags.slice(0, MAX_PULLED_PER_READ).map((key) => ({ key, range: timelineRange }));
  if (plan.missing) {
    // Only what the stored feed may lack: posts made since the copies stopped.
    const missingRange = (since: bigint) => ({ ...timelineRange, below: minOf(timelineRange.below, missingFromRk(since)) });
    // One cap for both, a fifth of it kept for tags: a reader of 100 authors still gets their tags.
    const tagShare = Math.min(plan.missing.tags.length, MAX_PULLED_PER_READ / 5);
    const followees = plan.missing.followees.slice(0, MAX_PULLED_PER_READ - tagShare);
    sources.push(...followees.map((author) => ({ author, range: missingRange(plan.missing!.since) })));
    const tags = plan.missing.tags.slice(0, MAX_PULLED_PER_READ - followees.length);
    tagSources.push(...tags.map((t) => ({ key: t.key, range: missingRange(t.since) })));
  }
  if (sources.length === 0 && tagSources.length === 0) return mergeSources([home], req);
  const [others, tagged] = await Promise.all([
    Promise.all(
      sources.map(async ({ author, range: r }) => {
        const p = await runPage(timelinePageInput(author, r, req.verbs));
        return sourceOf(p.items, p.last, req.limit);
      }),
    ),
    tagFeedSources(owner, tagSources, req.limit, req.verbs),
  ]);
  return mergeSources([home, ...others, ...tagged], req);
}
