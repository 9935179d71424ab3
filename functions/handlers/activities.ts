/**
 * POST /activities, GET /activities/{id}, DELETE /activities/{id}.
 * The actor is the caller (JWT `sub`); a token with the tickfeed/admin scope may name another one
 * (`actor` in the body). See services/posting.ts and services/access.ts.
 */
import { deleteActivity, getActivity, postActivity } from '../services/posting.js';
import { callerId, callerOf } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { jsonBody } from '../http/request.js';
import { LIMITS, postActivityBody } from '../http/schemas.js';
import type { AuthedEvent } from '../http/types.js';

const idOf = (event: AuthedEvent) => event.pathParameters?.id ?? '';

export const handler = routes<AuthedEvent>({
  'POST /activities': async (event) => {
    const { userId, admin } = callerOf(event);
    const { created, activity } = await postActivity(userId, admin, jsonBody(event, postActivityBody, LIMITS.bodyBytes));
    return json(created ? 201 : 200, activity, created ? { location: `/activities/${activity.id}` } : {});
  },

  'GET /activities/{id}': async (event) => {
    callerId(event);
    return json(200, await getActivity(idOf(event)));
  },

  'DELETE /activities/{id}': async (event) => {
    await deleteActivity(callerId(event), idOf(event));
    return { statusCode: 204 };
  },
});
