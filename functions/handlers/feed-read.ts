/**
 * GET /feed (the caller's home feed) and GET /users/{userId}/activities (a user's own posts, their
 * timeline). One Query per page for both (see services/feed-reading.ts for cursors and costs).
 */
import { LIMITS, type PageQuery } from '../http/schemas.js';
import { readHomeFeed, readTimeline, type PageRequest } from '../services/feed-reading.js';
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { parseRequest } from '../http/parse-request.js';
import type { AuthedEvent } from '../http/types.js';

function pageRequest(q: PageQuery): PageRequest {
  return {
    limit: q.limit === undefined ? LIMITS.pageDefault : Number(q.limit),
    before: q.before === undefined ? undefined : BigInt(q.before),
    since: q.since === undefined ? undefined : BigInt(q.since),
  };
}

export const handler = routes<AuthedEvent>({
  'GET /feed': async (event) => {
    const owner = callerId(event);
    const { query } = parseRequest(event, 'GET /feed');
    return json(200, await readHomeFeed(owner, pageRequest(query)));
  },

  'GET /users/{userId}/activities': async (event) => {
    callerId(event);
    const { path, query } = parseRequest(event, 'GET /users/{userId}/activities');
    return json(200, await readTimeline(path.userId, pageRequest(query)));
  },
});
