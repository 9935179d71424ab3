/**
 * The caller's notification feed: its groups, its unseen/unread counts, and marking groups seen
 * or read. See services/notifications/.
 */
import { json, routes } from '../http/handler.js';
import { listRequest } from '../http/schemas.js';
import { markNotifications } from '../services/notifications/mark.js';
import { notificationCounts, readNotifications } from '../services/notifications/read-notifications.js';

export const handler = routes('notifications', {
  listNotifications: async ({ caller, query }) => json(200, await readNotifications(caller.userId, listRequest(query))),

  getNotificationCounts: async ({ caller }) => json(200, await notificationCounts(caller.userId)),

  markNotificationsSeen: async ({ caller, body }) => {
    await markNotifications(caller.userId, 'seen', body?.ids);
    return { statusCode: 204 };
  },

  markNotificationsRead: async ({ caller, body }) => {
    await markNotifications(caller.userId, 'read', body?.ids);
    return { statusCode: 204 };
  },
});
