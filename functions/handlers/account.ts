/**
 * The caller's data as a whole: its export (in parts), its erase (202: a background job) and, for
 * tokens with the tickfeed/admin scope, erasing any user. See services/export.ts and services/erase/.
 */
import { json, routes } from '../http/handler.js';
import { requestErase } from '../services/erase/erase.js';
import { exportUser } from '../services/export.js';

const accepted = { statusCode: 202 };

export const handler = routes('account', {
  exportMe: async ({ caller, query }) => json(200, await exportUser(caller.userId, query.cursor)),
  eraseMe: async ({ caller }) => {
    await requestErase(caller.userId);
    return accepted;
  },
  eraseUser: async ({ path }) => {
    await requestErase(path.userId);
    return accepted;
  },
});
