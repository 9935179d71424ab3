/**
 * The caller's notification feed: GET /notifications, GET /notifications/counts, and
 * POST /notifications/seen and /read. See services/notifications/.
 */
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { parseRequest } from '../http/parse-request.js';
import { listRequest } from '../http/schemas.js';
import type { AuthedEvent } from '../http/types.js';
import { markNotifications } from '../services/notifications/mark.js';
import { notificationCounts, readNotifications } from '../services/notifications/read.js';

export const handler = routes<AuthedEvent>({
  'GET /notifications': async (event) => {
    const caller = callerId(event);
    const { query } = parseRequest(event, 'GET /notifications');
    return json(200, await readNotifications(caller, listRequest(query)));
  },

  'GET /notifications/counts': async (event) => json(200, await notificationCounts(callerId(event))),

  'POST /notifications/seen': async (event) => {
    const caller = callerId(event);
    const { body } = parseRequest(event, 'POST /notifications/seen');
    await markNotifications(caller, 'seen', body?.ids);
    return { statusCode: 204 };
  },

  'POST /notifications/read': async (event) => {
    const caller = callerId(event);
    const { body } = parseRequest(event, 'POST /notifications/read');
    await markNotifications(caller, 'read', body?.ids);
    return { statusCode: 204 };
  },
});
