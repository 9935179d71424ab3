/** GET /me — the caller's user id (from the verified JWT) and their follow counts. */
import { profileOf } from '../services/following.js';
import { callerId } from '../http/caller.js';
import { httpHandler, json } from '../http/handler.js';
import type { AuthedEvent } from '../http/types.js';

export const handler = httpHandler<AuthedEvent>(async (event) => {
  const userId = callerId(event);
  return json(200, { userId, ...(await profileOf(userId)) });
});
