import { ADMIN_SCOPE, scopesOf } from '../../lib/defs/scopes.js';
import { UnauthorizedError } from '../model/domain-errors.js';
import { isValidUserId, USER_ID_RULE } from '../model/user-id.js';
import type { AuthedEvent } from './types.js';

/**
 * Who is calling, from the claims the authorizer verified (API Gateway in AWS, the local API
 * emulator locally): the user id (`sub`) and whether the token carries the `tickfeed/admin` scope
 * (the product's backend, not an end user). Services get `admin` as a plain value.
 */
export interface Caller {
  readonly userId: string;
  readonly admin: boolean;
}

export function callerOf(event: AuthedEvent): Caller {
  const claims = event.requestContext.authorizer?.jwt?.claims;
  return { userId: callerId(event), admin: scopesOf(claims).includes(ADMIN_SCOPE) };
}

/** The caller's user id: the JWT `sub` claim. Only admin tokens may name another actor. */
export function callerId(event: AuthedEvent): string {
  const sub = event.requestContext.authorizer?.jwt?.claims?.sub;
  if (typeof sub !== 'string' || sub === '') throw new UnauthorizedError();
  // Refused before anything is written: every key and job must be able to carry the caller.
  if (!isValidUserId(sub)) throw new UnauthorizedError(`The token's subject is not a valid user id (${USER_ID_RULE}).`);
  return sub;
}
