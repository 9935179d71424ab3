/**
 * GET /feed (the caller's home feed) and GET /users/{userId}/activities (a user's own posts, their
 * timeline). One Query per page for both (see services/feed-reading.ts for cursors and costs).
 */
import { LIMITS, pageQuery, userIdSchema } from '../http/schemas.js';
import { readHomeFeed, readTimeline, type PageRequest } from '../services/feed-reading.js';
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { queryParams, validate } from '../http/request.js';
import type { AuthedEvent } from '../http/types.js';

function pageRequest(event: AuthedEvent): PageRequest {
  const q = queryParams(event, pageQuery);
  return {
    limit: q.limit === undefined ? LIMITS.pageDefault : Number(q.limit),
    before: q.before === undefined ? undefined : BigInt(q.before),
    since: q.since === undefined ? undefined : BigInt(q.since),
  };
}

export const handler = routes<AuthedEvent>({
  'GET /feed': async (event) => {
    const owner = callerId(event);
    return json(200, await readHomeFeed(owner, pageRequest(event)));
  },

  'GET /users/{userId}/activities': async (event) => {
    callerId(event);
    const userId = validate(userIdSchema, event.pathParameters?.userId ?? '', 'path.userId', 'Invalid user id.');
    return json(200, await readTimeline(userId, pageRequest(event)));
  },
});
