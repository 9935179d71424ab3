/**
 * The caller's home feed (getHomeFeed), the same folded into groups (getAggregatedFeed) and a
 * user's own posts, their timeline (getUserActivities); a tag's activities and the trending tags
 * (services/tags/). One Query per page for both
 * plain reads (see services/feed-reading.ts for cursors and costs); `?enrich=reactions` adds two
 * batch reads.
 */
import { TOP_KEPT } from '../model/trend.js';
import { type PageQuery, pageLimit } from '../http/schemas.js';
import { readAggregatedFeed } from '../services/feed-aggregation.js';
import { readHomeFeed, readTimeline, type PageRequest } from '../services/feed-reading.js';
import { enriched } from '../services/reactions.js';
import { tagOfPath } from '../services/tags/tag-follows.js';
import { readTagFeed } from '../services/tags/tag-feed.js';
import { readTrending } from '../services/tags/trending.js';
import { feedPage } from '../http/feed-page.js';
import { json, routes } from '../http/handler.js';

function pageRequest(q: PageQuery): PageRequest {
  return {
    limit: pageLimit(q.limit),
    before: q.before === undefined ? undefined : BigInt(q.before),
    since: q.since === undefined ? undefined : BigInt(q.since),
    verbs: q.verbs?.split(','),
  };
}

export const handler = routes('feedRead', {
  getHomeFeed: async ({ caller: { userId: owner }, query }) =>
    json(200, feedPage(await enriched(owner, await readHomeFeed(owner, pageRequest(query)), query.enrich))),

  getAggregatedFeed: async ({ caller: { userId: owner }, query }) =>
    json(
      200,
      feedPage(await readAggregatedFeed(owner, { limit: pageLimit(query.limit), before: query.before === undefined ? undefined : BigInt(query.before) })),
    ),

  getUserActivities: async ({ caller: { userId: caller }, path, query }) =>
    json(200, feedPage(await enriched(caller, await readTimeline(path.userId, pageRequest(query), caller), query.enrich))),

  getTagActivities: async ({ caller: { userId: caller }, path, query }) =>
    json(200, feedPage(await enriched(caller, await readTagFeed(caller, tagOfPath(path.tag).key, pageRequest(query)), query.enrich))),

  getTrendingTags: async ({ query }) => json(200, await readTrending(query.window ?? '1h', TOP_KEPT)),
});
