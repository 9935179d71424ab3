/**
 * The follow graph over HTTP: follow and unfollow (204, idempotent), a user's followers and
 * following (newest follow first, `{ items: [{ userId }], next }` pages: services/list-page.ts),
 * and a user's follow counts; following tags (services/tags/tag-follows.ts).
 */
import type { FollowList } from '../model/follow-lists.js';
import { follow, listFollows, profileOf, unfollow } from '../services/follow-graph.js';
import { followTag, listFollowedTags, unfollowTag } from '../services/tags/tag-follows.js';
import { json, routes } from '../http/handler.js';
import { type ListQuery, listRequest } from '../http/schemas.js';
import type { HttpResult } from '../http/types.js';

const noContent: HttpResult = { statusCode: 204 };

async function list(which: FollowList, userId: string, query: ListQuery): Promise<HttpResult> {
  return json(200, await listFollows(which, userId, listRequest(query)));
}

export const handler = routes('graph', {
  follow: async ({ caller, path }) => {
    await follow(caller.userId, path.userId);
    return noContent;
  },
  unfollow: async ({ caller, path }) => {
    await unfollow(caller.userId, path.userId);
    return noContent;
  },
  listFollowers: async ({ path, query }) => list('followers', path.userId, query),
  listFollowing: async ({ path, query }) => list('following', path.userId, query),
  getFollowCounts: async ({ path }) => json(200, { userId: path.userId, ...(await profileOf(path.userId)) }),
  followTag: async ({ caller, path }) => {
    await followTag(caller.userId, path.tag);
    return noContent;
  },
  unfollowTag: async ({ caller, path }) => {
    await unfollowTag(caller.userId, path.tag);
    return noContent;
  },
  listFollowedTags: async ({ caller, query }) => json(200, await listFollowedTags(caller.userId, listRequest(query))),
});
