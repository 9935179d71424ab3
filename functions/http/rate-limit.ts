/**
 * The HTTP edge's per-caller rate limit: before a route runs, its caller spends a token of the
 * route's class (its `rate`, lib/defs/routes.ts) — past the limit, a 429 with Retry-After and
 * nothing done (services/rate-limits.ts). Tokens with the admin scope are not limited; a request without
 * a valid caller is left to the route, which refuses it.
 */
import type { RateClass } from '../../lib/defs/rate-limits.js';
import { admit } from '../services/rate-limits.js';
import { callerOf } from './caller.js';
import type { AuthedEvent, HttpEvent } from './types.js';

export async function admitCaller(event: HttpEvent, cls: RateClass | undefined): Promise<void> {
  if (!cls || (event as AuthedEvent).requestContext?.authorizer?.jwt?.claims?.sub === undefined) return;
  let caller;
  try {
    caller = callerOf(event as AuthedEvent);
  } catch {
    return; // an invalid subject: the route answers 401
  }
  if (!caller.admin) await admit(caller.userId, cls);
}
