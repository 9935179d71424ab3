/**
 * Wraps a route function of a caller's route so every exit is a well-formed HTTP result
 * (respond.ts), once the caller's rate limit admitted the request (rate-limit.ts: a 429 otherwise,
 * before anything is done). `routes()` dispatches on the route key API Gateway puts in the event,
 * so one Lambda can serve a capability's few routes.
 */
import { NotFoundError } from '../model/errors.js';
import { admitCaller } from './rate-limit.js';
import { publicHandler, type RouteFn } from './respond.js';
import type { HttpEvent, HttpResult } from './types.js';

export { json, type RouteFn } from './respond.js';

export function httpHandler<E extends HttpEvent>(fn: RouteFn<E>): (event: E) => Promise<HttpResult> {
  return publicHandler(async (event) => {
    await admitCaller(event);
    return fn(event);
  });
}

export function routes<E extends HttpEvent>(table: Record<string, RouteFn<E>>): (event: E) => Promise<HttpResult> {
  return httpHandler(async (event) => {
    const fn = table[event.routeKey];
    if (!fn) throw new NotFoundError(`No route for ${event.routeKey}.`);
    return fn(event);
  });
}
