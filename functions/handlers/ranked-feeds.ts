/**
 * Ranked feeds: definitions (list, put, get, delete), reading one, and feedback on its posts.
 * See services/ranking/ and docs/ranked-feeds.md.
 */
import { json, routes } from '../http/handler.js';
import { listRequest, pageLimit } from '../http/schemas.js';
import { deleteFeed, getFeed, listFeeds, putFeed } from '../services/ranking/definitions.js';
import { recordInteractions } from '../services/ranking/feedback.js';
import { readRankedFeed } from '../services/ranking/read-ranked.js';

const noContent = { statusCode: 204 };

export const handler = routes('rankedFeeds', {
  listFeeds: async ({ caller, query }) => json(200, await listFeeds(caller, listRequest(query))),

  putFeed: async ({ caller, path, body }) => json(200, await putFeed(caller, path.feedId, body)),

  getFeed: async ({ caller, path }) => json(200, await getFeed(caller, path.feedId)),

  deleteFeed: async ({ caller, path }) => {
    await deleteFeed(caller, path.feedId);
    return noContent;
  },

  getRankedFeed: async ({ caller, path, query }) =>
    json(
      200,
      await readRankedFeed(caller, path.feedId, {
        limit: pageLimit(query.limit),
        ...(query.cursor !== undefined && { cursor: query.cursor }),
        explain: query.explain === 'true',
        ...(query.enrich !== undefined && { enrich: query.enrich }),
      }),
    ),

  sendInteractions: async ({ caller, path, body }) => {
    await recordInteractions(caller, path.feedId, body.items);
    return noContent;
  },
});
