import { UnauthorizedError } from '../model/errors.js';
import { isValidUserId, USER_ID_RULE } from '../model/user-id.js';
import type { AuthedEvent } from './types.js';

/**
 * The caller's user id: the JWT `sub` claim, as verified by the authorizer (API Gateway in AWS,
 * the local API emulator locally). Bodies never name the actor.
 */
export function callerId(event: AuthedEvent): string {
  const sub = event.requestContext.authorizer?.jwt?.claims?.sub;
  if (typeof sub !== 'string' || sub === '') throw new UnauthorizedError();
  // Refused before anything is written: every key and job must be able to carry the caller.
  if (!isValidUserId(sub)) throw new UnauthorizedError(`The token's subject is not a valid user id (${USER_ID_RULE}).`);
  return sub;
}
