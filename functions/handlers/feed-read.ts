/**
 * GET /feed (the caller's home feed) and GET /users/{userId}/activities (a user's own posts, from
 * the sparse byAuthor index). One Query per page (plus one per pulled followee on /feed, see
 * core/fanout/hybrid.ts); see core/feed/read.ts for the cursor rules.
 */
import { tables } from '../../lib/defs/tables.js';
import { requireEnv } from '../core/env.js';
import { readMergedFeed } from '../core/fanout/hybrid.js';
import { readPage, type PageRequest, type PageSource } from '../core/feed/read.js';
import { LIMITS, pageQuery, userIdSchema } from '../core/feed/schemas.js';
import { ageBound } from '../core/retention/bounds.js';
import { policyFromEnv } from '../core/retention/policy.js';
import { visibleBound } from '../core/retention/visible.js';
import { nowTicks } from '../core/ticks.js';
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { queryParams, validate } from '../http/request.js';
import type { AuthedEvent } from '../http/types.js';

const feedTable = requireEnv(tables.feed.envVar);
const policy = policyFromEnv();

function pageRequest(event: AuthedEvent, source: PageSource): PageRequest {
  const q = queryParams(event, pageQuery);
  return {
    source,
    limit: q.limit === undefined ? LIMITS.pageDefault : Number(q.limit),
    before: q.before === undefined ? undefined : BigInt(q.before),
    since: q.since === undefined ? undefined : BigInt(q.since),
  };
}

export const handler = routes<AuthedEvent>({
  'GET /feed': async (event) => {
    const owner = callerId(event);
    const req = pageRequest(event, { kind: 'feed', owner }); // validated before any retention read
    const bound = await visibleBound(owner, policy, nowTicks());
    // Stored feed + the pulled authors the caller follows (hybrid fan-out); one Query if none.
    return json(200, await readMergedFeed(feedTable, { ...req, bound }));
  },

  'GET /users/{userId}/activities': async (event) => {
    callerId(event);
    const userId = validate(userIdSchema, event.pathParameters?.userId ?? '', 'path.userId', 'Invalid user id.');
    // Originals expire with the author's TTL; the count/span bounds belong to the home feed.
    const bound = ageBound(nowTicks(), policy);
    return json(200, await readPage(feedTable, { ...pageRequest(event, { kind: 'author', userId }), bound }));
  },
});
