/**
 * GET /feed — the caller's home feed; GET /users/{userId}/activities — a user's own posts (the
 * sparse `byAuthor` index). Both newest first, one Query per page, cursor = range key.
 */
import { createFeedReader } from '../core/activities/reader.js';
import { feedTableFromEnv } from '../core/activities/tables.js';
import { doc } from '../core/clients.js';
import { actorOf, pageParams, userIdPathParam } from '../http/activity-params.js';
import { json, routes } from '../http/handler.js';
import type { AuthedEvent } from '../http/types.js';

const reader = createFeedReader(doc, feedTableFromEnv());

export const handler = routes<AuthedEvent>({
  'GET /feed': async (event) => {
    const owner = actorOf(event);
    const { cursor, limit } = pageParams(event);
    return json(200, await reader.page({ kind: 'feed', owner }, cursor, limit));
  },
  'GET /users/{userId}/activities': async (event) => {
    actorOf(event);
    const userId = userIdPathParam(event);
    const { cursor, limit } = pageParams(event);
    return json(200, await reader.page({ kind: 'author', userId }, cursor, limit));
  },
});
