/**
 * The follow graph over HTTP:
 *   PUT    /following/{userId}          follow (204; repeat = 204, no change)
 *   DELETE /following/{userId}          unfollow (204; not following = 204)
 *   GET    /users/{userId}/followers    ?limit=1..100 (20) &cursor=<next>  newest follow first
 *   GET    /users/{userId}/following    same
 *   GET    /users/{userId}              { userId, followers, following }
 * A page is `{ items: [{ userId }], next }` (services/list-page.ts); `next` is null on the last.
 */
import type { FollowList } from '../model/follow-lists.js';
import { follow, listFollows, profileOf, unfollow } from '../services/following.js';
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { parseRequest } from '../http/parse-request.js';
import { type ListQuery, listRequest } from '../http/schemas.js';
import type { AuthedEvent, HttpResult } from '../http/types.js';

const noContent: HttpResult = { statusCode: 204 };

async function list(which: FollowList, userId: string, query: ListQuery): Promise<HttpResult> {
  return json(200, await listFollows(which, userId, listRequest(query)));
}

export const handler = routes<AuthedEvent>({
  'PUT /following/{userId}': async (event) => {
    const caller = callerId(event);
    await follow(caller, parseRequest(event, 'PUT /following/{userId}').path.userId);
    return noContent;
  },
  'DELETE /following/{userId}': async (event) => {
    const caller = callerId(event);
    await unfollow(caller, parseRequest(event, 'DELETE /following/{userId}').path.userId);
    return noContent;
  },
  'GET /users/{userId}/followers': async (event) => {
    const { path, query } = parseRequest(event, 'GET /users/{userId}/followers');
    return list('followers', path.userId, query);
  },
  'GET /users/{userId}/following': async (event) => {
    const { path, query } = parseRequest(event, 'GET /users/{userId}/following');
    return list('following', path.userId, query);
  },
  'GET /users/{userId}': async (event) => {
    const { userId } = parseRequest(event, 'GET /users/{userId}').path;
    return json(200, { userId, ...(await profileOf(userId)) });
  },
});
