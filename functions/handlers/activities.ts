/**
 * POST /activities, GET /activities/{id}, DELETE /activities/{id}.
 * The actor is always the caller (JWT `sub`), never the body.
 */
import { postActivityBody, limits } from '../core/activities/schemas.js';
import { createActivityStore } from '../core/activities/store.js';
import { storeTablesFromEnv } from '../core/activities/tables.js';
import { doc } from '../core/clients.js';
import { logger } from '../core/logger.js';
import { activityIdParam, actorOf } from '../http/activity-params.js';
import { readJsonBody } from '../http/body.js';
import { json, routes } from '../http/handler.js';
import type { AuthedEvent } from '../http/types.js';
import { parseRequest } from '../http/validate.js';

const store = createActivityStore(doc, storeTablesFromEnv());

export const handler = routes<AuthedEvent>({
  'POST /activities': async (event) => {
    const actor = actorOf(event);
    const body = parseRequest(postActivityBody, readJsonBody(event, limits.bodyBytes), 'body');
    const { activity, created, writeUnits } = await store.post(actor, body);
    if (created) logger.debug('posted', { id: activity.id, writeUnits });
    // 200 + the original for a foreignId replay: the client's retry succeeded, nothing new exists.
    return created ? json(201, activity, { location: `/activities/${activity.id}` }) : json(200, activity);
  },
  'GET /activities/{id}': async (event) => {
    actorOf(event);
    const { actor, rk } = activityIdParam(event);
    return json(200, await store.get(actor, rk));
  },
  'DELETE /activities/{id}': async (event) => {
    const caller = actorOf(event);
    const { actor, rk } = activityIdParam(event);
    await store.remove(caller, actor, rk);
    return { statusCode: 204 };
  },
});
