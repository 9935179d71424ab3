/**
 * GET /feed (the caller's home feed), GET /feed/aggregated (the same, folded into groups) and
 * GET /users/{userId}/activities (a user's own posts, their timeline). One Query per page for both
 * plain reads (see services/feed-reading.ts for cursors and costs); `?enrich=reactions` adds two
 * batch reads.
 */
import { type PageQuery, pageLimit } from '../http/schemas.js';
import { readAggregatedFeed } from '../services/feed-aggregation.js';
import { readHomeFeed, readTimeline, type PageRequest } from '../services/feed-reading.js';
import { enriched } from '../services/reactions.js';
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { parseRequest } from '../http/parse-request.js';
import type { AuthedEvent } from '../http/types.js';

function pageRequest(q: PageQuery): PageRequest {
  return {
    limit: pageLimit(q.limit),
    before: q.before === undefined ? undefined : BigInt(q.before),
    since: q.since === undefined ? undefined : BigInt(q.since),
    verbs: q.verbs?.split(','),
  };
}

export const handler = routes<AuthedEvent>({
  'GET /feed': async (event) => {
    const owner = callerId(event);
    const { query } = parseRequest(event, 'GET /feed');
    return json(200, await enriched(owner, await readHomeFeed(owner, pageRequest(query)), query.enrich));
  },

  'GET /feed/aggregated': async (event) => {
    const owner = callerId(event);
    const { query } = parseRequest(event, 'GET /feed/aggregated');
    return json(200, await readAggregatedFeed(owner, { limit: pageLimit(query.limit), before: query.before === undefined ? undefined : BigInt(query.before) }));
  },

  'GET /users/{userId}/activities': async (event) => {
    const caller = callerId(event);
    const { path, query } = parseRequest(event, 'GET /users/{userId}/activities');
    return json(200, await enriched(caller, await readTimeline(path.userId, pageRequest(query), caller), query.enrich));
  },
});
