/**
 * The handler of a function whose routes have a caller: a table of the function's operations
 * (lib/defs/routes.ts: `tsc` fails while one is missing or the table names another function's).
 * For the operation the event's route key names, in this order, every exit a well-formed HTTP
 * result (respond.ts): the caller's rate limit (rate-limit.ts: a 429, nothing done), the caller
 * (a 401 without a valid `sub`), an admin route's scope (a 403 should the route ever be deployed
 * without the authorizer's check), the request against its schemas (parse-request.ts: a 400) —
 * and only then the operation's function, handed the parsed request and the caller.
 *
 * @example
 *   export const handler = routes('graph', {
 *     follow: async ({ caller, path }) => { … },
 *     …
 *   });
 */
import type { FunctionId } from '../../lib/defs/functions.js';
import { type OperationId, type OperationOf, type PublicFunctionId, routeByKey, routeKey } from '../../lib/defs/routes.js';
import { NotFoundError } from '../model/domain-errors.js';
import { requireAdmin } from '../services/access.js';
import { type Caller, callerOf } from './caller.js';
import { parseRequest, type RequestOf } from './parse-request.js';
import { headerOf } from './request.js';
import { admitCaller } from './rate-limit.js';
import { publicHandler } from './respond.js';
import type { AuthedEvent, HttpResult } from './types.js';

export { json } from './respond.js';

/** What an operation's function gets: its parsed path, query and body, who is calling, and a header reader. */
export type OperationRequest<K extends OperationId> = RequestOf<K> & { readonly caller: Caller; readonly header: (name: string) => string | undefined };

export type OperationFn<K extends OperationId> = (request: OperationRequest<K>) => Promise<HttpResult>;

/** One function per operation of `F`, no more, no fewer. */
export type OperationTable<F extends FunctionId> = { readonly [K in OperationOf<F>]: OperationFn<K> };

/**
 * A function's operations, each handed its request once the caller is admitted (rate limit, 401,
 * the admin scope) and the request checked (400). Only for functions whose routes have a caller:
 * a function serving a public route is a plain handler (`F` excludes it, so it cannot be given one).
 */
export function routes<F extends Exclude<FunctionId, PublicFunctionId>>(fn: F, table: OperationTable<F>): (event: AuthedEvent) => Promise<HttpResult> {
  const serves = table as unknown as Readonly<Record<string, OperationFn<OperationId>>>;
  return publicHandler(async (event: AuthedEvent) => {
    const route = routeByKey(event.routeKey);
    const serve = route?.fn === fn ? serves[route.id] : undefined;
    if (!route || !serve) throw new NotFoundError(`No route for ${event.routeKey}.`);
    await admitCaller(event, route.rate);
    const caller = callerOf(event);
    if (route.access === 'admin') requireAdmin(caller.admin, routeKey(route));
    return serve({ ...parseRequest(event, route.id), caller, header: (name) => headerOf(event, name) });
  });
}
