/**
 * The caller's data as a whole: GET /me/export (in parts), DELETE /me (erase, 202: a background
 * job) and, for tokens with the tickfeed/admin scope, DELETE /users/{userId}.
 * See services/export.ts and services/erase/.
 */
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { parseRequest } from '../http/parse-request.js';
import type { AuthedEvent } from '../http/types.js';
import { requestErase } from '../services/erase/erase.js';
import { exportUser } from '../services/export.js';

const accepted = { statusCode: 202 };

export const handler = routes<AuthedEvent>({
  'GET /me/export': async (event) => {
    const caller = callerId(event);
    const { query } = parseRequest(event, 'GET /me/export');
    return json(200, await exportUser(caller, query.cursor));
  },
  'DELETE /me': async (event) => {
    await requestErase(callerId(event));
    return accepted;
  },
  // The route requires the admin scope (API Gateway's authorizer); see lib/defs/routes.ts.
  'DELETE /users/{userId}': async (event) => {
    callerId(event);
    await requestErase(parseRequest(event, 'DELETE /users/{userId}').path.userId);
    return accepted;
  },
});
