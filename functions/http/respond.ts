/**
 * Every exit a well-formed HTTP result: a JSON body on success, problem+json on a known error, a
 * bare 500 otherwise. `publicHandler` serves routes without a caller (health, the document, the
 * fallback): nothing to rate-limit, so it stays free of the limiter and its DynamoDB client.
 * Routes with a caller use handler.ts, which admits the request through the caller's rate limit first.
 */
import { problemResponse } from './problem.js';
import type { HttpEvent, HttpResult } from './types.js';

export type RouteFn<E extends HttpEvent> = (event: E) => Promise<HttpResult>;

export function publicHandler<E extends HttpEvent>(fn: RouteFn<E>): (event: E) => Promise<HttpResult> {
  return async (event) => {
    try {
      return await fn(event);
    } catch (error) {
      return problemResponse(error, event.rawPath);
    }
  };
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}
