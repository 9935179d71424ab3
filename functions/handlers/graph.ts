/**
 * The follow graph over HTTP:
 *   PUT    /following/{userId}          follow (204; repeat = 204, no change)
 *   DELETE /following/{userId}          unfollow (204; not following = 204)
 *   GET    /users/{userId}/followers    ?limit=1..100 (20) &before=<cursor>  newest follow first
 *   GET    /users/{userId}/following    same
 *   GET    /users/{userId}              { userId, followers, following }
 * A page is `{ items: [{ userId }], next? }`; pass `next` as `before` for the following page.
 */
import type { FollowList } from '../model/follow-lists.js';
import { follow, listFollows, profileOf, unfollow } from '../services/following.js';
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { queryParams, validate } from '../http/request.js';
import { followListQuery, userIdSchema } from '../http/schemas.js';
import type { AuthedEvent, HttpResult } from '../http/types.js';

const noContent: HttpResult = { statusCode: 204 };

const targetOf = (event: AuthedEvent) => validate(userIdSchema, event.pathParameters?.userId ?? '', 'path.userId', 'Invalid user id.');

async function list(event: AuthedEvent, which: FollowList): Promise<HttpResult> {
  const userId = targetOf(event);
  const q = queryParams(event, followListQuery);
  return json(200, await listFollows(which, userId, q.limit === undefined ? 20 : Number(q.limit), q.before));
}

export const handler = routes<AuthedEvent>({
  'PUT /following/{userId}': async (event) => {
    await follow(callerId(event), targetOf(event));
    return noContent;
  },
  'DELETE /following/{userId}': async (event) => {
    await unfollow(callerId(event), targetOf(event));
    return noContent;
  },
  'GET /users/{userId}/followers': (event) => list(event, 'followers'),
  'GET /users/{userId}/following': (event) => list(event, 'following'),
  'GET /users/{userId}': async (event) => {
    const userId = targetOf(event);
    return json(200, { userId, ...(await profileOf(userId)) });
  },
});
