/**
 * POST /activities, GET /activities/{id}, DELETE /activities/{id}.
 * The actor is the caller (JWT `sub`); a token with the tickfeed/admin scope may name another one
 * (`actor` in the body). See services/posting.ts and services/access.ts.
 */
import { deleteActivity, postActivity } from '../services/posting.js';
import { getActivityWithReactions } from '../services/reactions.js';
import { callerId, callerOf } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { parseRequest } from '../http/parse-request.js';
import type { AuthedEvent } from '../http/types.js';

export const handler = routes<AuthedEvent>({
  'POST /activities': async (event) => {
    const { userId, admin } = callerOf(event);
    const { body } = parseRequest(event, 'POST /activities');
    const { created, activity } = await postActivity(userId, admin, body);
    return json(created ? 201 : 200, activity, created ? { location: `/activities/${activity.id}` } : {});
  },

  'GET /activities/{id}': async (event) => {
    const caller = callerId(event);
    const { path } = parseRequest(event, 'GET /activities/{id}');
    return json(200, await getActivityWithReactions(caller, path.id));
  },

  'DELETE /activities/{id}': async (event) => {
    const caller = callerId(event);
    const { path } = parseRequest(event, 'DELETE /activities/{id}');
    await deleteActivity(caller, path.id);
    return { statusCode: 204 };
  },
});
