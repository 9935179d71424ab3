/**
 * Wraps a route function so every exit is a well-formed HTTP result: a JSON body on success,
 * problem+json on a known error, a bare 500 otherwise. `routes()` dispatches on the route key
 * API Gateway puts in the event, so one Lambda can serve a capability's few routes.
 */
import { NotFoundError } from '../model/errors.js';
import { problemResponse } from './problem.js';
import type { HttpEvent, HttpResult } from './types.js';

export type RouteFn<E extends HttpEvent> = (event: E) => Promise<HttpResult>;

export function httpHandler<E extends HttpEvent>(fn: RouteFn<E>): (event: E) => Promise<HttpResult> {
  return async (event) => {
    try {
      return await fn(event);
    } catch (error) {
      return problemResponse(error, event.rawPath);
    }
  };
}

export function routes<E extends HttpEvent>(table: Record<string, RouteFn<E>>): (event: E) => Promise<HttpResult> {
  return httpHandler(async (event) => {
    const fn = table[event.routeKey];
    if (!fn) throw new NotFoundError(`No route for ${event.routeKey}.`);
    return fn(event);
  });
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}
