/**
 * HTTP routes: API Gateway HTTP API route keys, the function behind each, and whether the JWT
 * authorizer guards it. The local API emulator matches requests against the same list.
 * `$default` catches everything else so unknown paths and methods get problem+json 404/405
 * instead of API Gateway's bare `{"message":"Not Found"}`.
 * Every route also needs an entry, under its route key, in the route → schema table
 * (functions/http/operations.ts): its request and response schemas, from which the edge validates
 * and GET /openapi.json is generated; test/unit/operations.test.ts fails until both agree.
 */
import type { FunctionId } from './functions.js';
import { ADMIN_SCOPE } from './scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface RouteDef {
  readonly method: HttpMethod;
  /** API Gateway path syntax: `/activities/{id}`. */
  readonly path: string;
  readonly fn: FunctionId;
  readonly auth: boolean;
  /**
   * OAuth scopes the authorizer requires (any one of them; API Gateway `authorizationScopes`).
   * A valid token without one gets API Gateway's 403 `{"message":"Forbidden"}`.
   */
  readonly scopes?: readonly string[];
}

export const routes: readonly RouteDef[] = [
  { method: 'GET', path: '/health', fn: 'health', auth: false },
  { method: 'GET', path: '/me', fn: 'me', auth: true },
  { method: 'GET', path: '/rollups/{name}', fn: 'rollupsRead', auth: true, scopes: [ADMIN_SCOPE] },
  { method: 'GET', path: '/users/{userId}/activity', fn: 'activityRead', auth: true },
  { method: 'PUT', path: '/following/{userId}', fn: 'graph', auth: true },
  { method: 'DELETE', path: '/following/{userId}', fn: 'graph', auth: true },
  { method: 'GET', path: '/users/{userId}/followers', fn: 'graph', auth: true },
  { method: 'GET', path: '/users/{userId}/following', fn: 'graph', auth: true },
  { method: 'GET', path: '/users/{userId}', fn: 'graph', auth: true },
  { method: 'POST', path: '/activities', fn: 'activities', auth: true },
  { method: 'GET', path: '/activities/{id}', fn: 'activities', auth: true },
  { method: 'DELETE', path: '/activities/{id}', fn: 'activities', auth: true },
  { method: 'GET', path: '/feed', fn: 'feedRead', auth: true },
  { method: 'GET', path: '/users/{userId}/activities', fn: 'feedRead', auth: true },
  { method: 'GET', path: '/feed/aggregated', fn: 'feedRead', auth: true },
  { method: 'PUT', path: '/activities/{id}/reactions/{kind}', fn: 'social', auth: true },
  { method: 'DELETE', path: '/activities/{id}/reactions/{kind}', fn: 'social', auth: true },
  { method: 'POST', path: '/activities/{id}/comments', fn: 'social', auth: true },
  { method: 'GET', path: '/activities/{id}/comments', fn: 'social', auth: true },
  { method: 'DELETE', path: '/activities/{id}/comments/{commentId}', fn: 'social', auth: true },
  { method: 'GET', path: '/notifications', fn: 'notifications', auth: true },
  { method: 'GET', path: '/notifications/counts', fn: 'notifications', auth: true },
  { method: 'POST', path: '/notifications/seen', fn: 'notifications', auth: true },
  { method: 'POST', path: '/notifications/read', fn: 'notifications', auth: true },
  { method: 'PUT', path: '/mutes/{userId}', fn: 'controls', auth: true },
  { method: 'DELETE', path: '/mutes/{userId}', fn: 'controls', auth: true },
  { method: 'GET', path: '/mutes', fn: 'controls', auth: true },
  { method: 'PUT', path: '/blocks/{userId}', fn: 'controls', auth: true },
  { method: 'DELETE', path: '/blocks/{userId}', fn: 'controls', auth: true },
  { method: 'GET', path: '/blocks', fn: 'controls', auth: true },
  { method: 'GET', path: '/me/export', fn: 'account', auth: true },
  { method: 'DELETE', path: '/me', fn: 'account', auth: true },
  { method: 'DELETE', path: '/users/{userId}', fn: 'account', auth: true, scopes: [ADMIN_SCOPE] },
  { method: 'POST', path: '/batch/follows', fn: 'batchImport', auth: true, scopes: [ADMIN_SCOPE] },
  { method: 'POST', path: '/batch/activities', fn: 'batchImport', auth: true, scopes: [ADMIN_SCOPE] },
  { method: 'GET', path: '/openapi.json', fn: 'openapi', auth: false },
  { method: 'GET', path: '/realtime', fn: 'realtime', auth: true },
  { method: 'GET', path: '/realtime/missed', fn: 'realtime', auth: true },
];

/** Route key as API Gateway writes it into `event.routeKey`. */
export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>): string => `${r.method} ${r.path}`;

export const defaultRoute = { routeKey: '$default', fn: 'fallback' as FunctionId, auth: false } as const;

/**
 * Match a concrete path against a route template (`/users/{userId}`), returning the path
 * parameters or undefined. Segments match whole; parameters never span a `/`, as in API Gateway.
 */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const want = template.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith('{') && w.endsWith('}')) {
      if (g === '') return undefined;
      let decoded: string;
      try {
        decoded = decodeURIComponent(g);
      } catch {
        return undefined; // malformed %-escape: no route matches (404), never a crash
      }
      params[w.slice(1, -1)] = decoded;
    } else if (w !== g) {
      return undefined;
    }
  }
  return params;
}

/** Resolve a request to its route, or say which methods the path allows (for a 405). */
export function resolveRoute(
  method: string,
  path: string,
): { route: RouteDef; params: Record<string, string> } | { route: undefined; allow: HttpMethod[] } {
  const allow: HttpMethod[] = [];
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    if (route.method === method) return { route, params };
    allow.push(route.method);
  }
  return { route: undefined, allow };
}
