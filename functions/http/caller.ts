import { UnauthorizedError } from '../model/errors.js';
import type { AuthedEvent } from './types.js';

/**
 * The caller's user id: the JWT `sub` claim, as verified by the authorizer (API Gateway in AWS,
 * the local API emulator locally). Bodies never name the actor.
 */
export function callerId(event: AuthedEvent): string {
  const sub = event.requestContext.authorizer?.jwt?.claims?.sub;
  if (typeof sub !== 'string' || sub === '') throw new UnauthorizedError();
  return sub;
}
