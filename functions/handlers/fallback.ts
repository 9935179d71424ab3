/**
 * `$default` route: anything no route matched. Answers problem+json 405 (with `Allow`) when the
 * path exists under another method, else 404 — instead of API Gateway's bare "Not Found".
 */
import { resolveRoute } from '../../lib/defs/routes.js';
import { NotFoundError } from '../model/domain-errors.js';
import { MethodNotAllowedError } from '../http/http-errors.js';
import { publicHandler } from '../http/respond.js';
import type { PublicEvent } from '../http/types.js';

export const handler = publicHandler<PublicEvent>(async (event) => {
  const method = event.requestContext.http.method;
  const resolved = resolveRoute(method, event.rawPath);
  if (resolved.route === undefined && resolved.allow.length > 0) {
    throw new MethodNotAllowedError(`${method} is not allowed on ${event.rawPath}.`, resolved.allow);
  }
  throw new NotFoundError(`No resource at ${event.rawPath}.`);
});
