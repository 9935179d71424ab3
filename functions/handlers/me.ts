/** getMe: the caller's user id (from the verified JWT) and their follow counts. */
import { profileOf } from '../services/follow-graph.js';
import { json, routes } from '../http/handler.js';

export const handler = routes('me', {
  getMe: async ({ caller }) => json(200, { userId: caller.userId, ...(await profileOf(caller.userId)) }),
});
