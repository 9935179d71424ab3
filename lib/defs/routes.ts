/**
 * HTTP routes, each declared once here: its operation id (the typed client's method name), method
 * and path (API Gateway syntax: `/activities/{id}`), the function behind it, who may call it and
 * the rate class its caller spends. Everything else derives from this table: the CDK stack's
 * routes and authorizer scopes, the local API emulator, the per-caller rate limit, each function's
 * dispatch (functions/http/handler.ts: a table keyed by these ids, type-checked against `fn`) and,
 * joined with the request and response schemas keyed by the same ids (functions/http/operations.ts,
 * type-checked to cover every id once), GET /openapi.json and docs/api.md's route table.
 * `$default` catches everything else so unknown paths and methods get problem+json 404/405
 * instead of API Gateway's bare `{"message":"Not Found"}`.
 */
import type { FunctionId } from './functions.js';
import type { RateClass } from './rate-limits.js';
import { ADMIN_SCOPE } from './scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * Who may call a route: anyone (`public`), any valid token (`token`: the caller is its `sub`), or
 * tokens with the admin scope only (`admin`: the authorizer requires it, and so does the function).
 */
export type RouteAccess = 'public' | 'token' | 'admin';

interface RouteBase {
  readonly method: HttpMethod;
  readonly path: string;
  readonly fn: FunctionId;
}

/**
 * A route is public (no caller, so nothing to rate-limit: the stage throttle covers it), or has a
 * caller who spends a token of `rate` (RATE_LIMITS, lib/defs/rate-limits.ts) per request: every
 * GET is a `reads`, a write is classed by what it costs.
 */
export type RouteSpec = (RouteBase & { readonly access: 'public' }) | (RouteBase & { readonly access: 'token' | 'admin'; readonly rate: RateClass });

export const routeSpecs = {
  getHealth: { method: 'GET', path: '/health', fn: 'health', access: 'public' },
  getMe: { method: 'GET', path: '/me', fn: 'me', access: 'token', rate: 'reads' },
  getRollupSeries: { method: 'GET', path: '/rollups/{name}', fn: 'rollupsRead', access: 'admin', rate: 'reads' },
  getActivityWindow: { method: 'GET', path: '/users/{userId}/activity', fn: 'activityRead', access: 'token', rate: 'reads' },
  follow: { method: 'PUT', path: '/following/{userId}', fn: 'graph', access: 'token', rate: 'follows' },
  unfollow: { method: 'DELETE', path: '/following/{userId}', fn: 'graph', access: 'token', rate: 'follows' },
  listFollowers: { method: 'GET', path: '/users/{userId}/followers', fn: 'graph', access: 'token', rate: 'reads' },
  listFollowing: { method: 'GET', path: '/users/{userId}/following', fn: 'graph', access: 'token', rate: 'reads' },
  getFollowCounts: { method: 'GET', path: '/users/{userId}', fn: 'graph', access: 'token', rate: 'reads' },
  postActivity: { method: 'POST', path: '/activities', fn: 'activities', access: 'token', rate: 'posts' },
  getActivity: { method: 'GET', path: '/activities/{id}', fn: 'activities', access: 'token', rate: 'reads' },
  deleteActivity: { method: 'DELETE', path: '/activities/{id}', fn: 'activities', access: 'token', rate: 'posts' },
  editActivity: { method: 'PATCH', path: '/activities/{id}', fn: 'activities', access: 'token', rate: 'posts' },
  getActivityHistory: { method: 'GET', path: '/activities/{id}/history', fn: 'activities', access: 'token', rate: 'reads' },
  getHomeFeed: { method: 'GET', path: '/feed', fn: 'feedRead', access: 'token', rate: 'reads' },
  getUserActivities: { method: 'GET', path: '/users/{userId}/activities', fn: 'feedRead', access: 'token', rate: 'reads' },
  getAggregatedFeed: { method: 'GET', path: '/feed/aggregated', fn: 'feedRead', access: 'token', rate: 'reads' },
  getTagActivities: { method: 'GET', path: '/tags/{tag}/activities', fn: 'feedRead', access: 'token', rate: 'reads' },
  getTrendingTags: { method: 'GET', path: '/tags/trending', fn: 'feedRead', access: 'token', rate: 'reads' },
  followTag: { method: 'PUT', path: '/following/tags/{tag}', fn: 'graph', access: 'token', rate: 'follows' },
  unfollowTag: { method: 'DELETE', path: '/following/tags/{tag}', fn: 'graph', access: 'token', rate: 'follows' },
  listFollowedTags: { method: 'GET', path: '/me/tags', fn: 'graph', access: 'token', rate: 'reads' },
  react: { method: 'PUT', path: '/activities/{id}/reactions/{kind}', fn: 'social', access: 'token', rate: 'reactions' },
  unreact: { method: 'DELETE', path: '/activities/{id}/reactions/{kind}', fn: 'social', access: 'token', rate: 'reactions' },
  postComment: { method: 'POST', path: '/activities/{id}/comments', fn: 'social', access: 'token', rate: 'reactions' },
  listComments: { method: 'GET', path: '/activities/{id}/comments', fn: 'social', access: 'token', rate: 'reads' },
  deleteComment: { method: 'DELETE', path: '/activities/{id}/comments/{commentId}', fn: 'social', access: 'token', rate: 'reactions' },
  listNotifications: { method: 'GET', path: '/notifications', fn: 'notifications', access: 'token', rate: 'reads' },
  getNotificationCounts: { method: 'GET', path: '/notifications/counts', fn: 'notifications', access: 'token', rate: 'reads' },
  markNotificationsSeen: { method: 'POST', path: '/notifications/seen', fn: 'notifications', access: 'token', rate: 'reactions' },
  markNotificationsRead: { method: 'POST', path: '/notifications/read', fn: 'notifications', access: 'token', rate: 'reactions' },
  mute: { method: 'PUT', path: '/mutes/{userId}', fn: 'controls', access: 'token', rate: 'follows' },
  unmute: { method: 'DELETE', path: '/mutes/{userId}', fn: 'controls', access: 'token', rate: 'follows' },
  listMutes: { method: 'GET', path: '/mutes', fn: 'controls', access: 'token', rate: 'reads' },
  block: { method: 'PUT', path: '/blocks/{userId}', fn: 'controls', access: 'token', rate: 'follows' },
  unblock: { method: 'DELETE', path: '/blocks/{userId}', fn: 'controls', access: 'token', rate: 'follows' },
  listBlocks: { method: 'GET', path: '/blocks', fn: 'controls', access: 'token', rate: 'reads' },
  exportMe: { method: 'GET', path: '/me/export', fn: 'account', access: 'token', rate: 'reads' },
  eraseMe: { method: 'DELETE', path: '/me', fn: 'account', access: 'token', rate: 'follows' },
  eraseUser: { method: 'DELETE', path: '/users/{userId}', fn: 'account', access: 'admin', rate: 'follows' },
  importFollows: { method: 'POST', path: '/batch/follows', fn: 'batchImport', access: 'admin', rate: 'follows' },
  importActivities: { method: 'POST', path: '/batch/activities', fn: 'batchImport', access: 'admin', rate: 'posts' },
  getOpenApiDocument: { method: 'GET', path: '/openapi.json', fn: 'openapi', access: 'public' },
  getRealtime: { method: 'GET', path: '/realtime', fn: 'realtime', access: 'token', rate: 'reads' },
  getMissedFeedItems: { method: 'GET', path: '/realtime/missed', fn: 'realtime', access: 'token', rate: 'reads' },
  listFeeds: { method: 'GET', path: '/feeds', fn: 'rankedFeeds', access: 'token', rate: 'reads' },
  putFeed: { method: 'PUT', path: '/feeds/{feedId}', fn: 'rankedFeeds', access: 'token', rate: 'follows' },
  getFeed: { method: 'GET', path: '/feeds/{feedId}', fn: 'rankedFeeds', access: 'token', rate: 'reads' },
  deleteFeed: { method: 'DELETE', path: '/feeds/{feedId}', fn: 'rankedFeeds', access: 'token', rate: 'follows' },
  getRankedFeed: { method: 'GET', path: '/feeds/{feedId}/activities', fn: 'rankedFeeds', access: 'token', rate: 'reads' },
  sendInteractions: { method: 'POST', path: '/feeds/{feedId}/interactions', fn: 'rankedFeeds', access: 'token', rate: 'reactions' },
} as const satisfies Record<string, RouteSpec>;

/** A declared route's operation id: `'postActivity'`. */
export type OperationId = keyof typeof routeSpecs;

/** The operations the function `F` serves. */
export type OperationOf<F extends FunctionId> = { [K in OperationId]: (typeof routeSpecs)[K]['fn'] extends F ? K : never }[OperationId];

/** Functions serving a public route (no caller: they answer through a plain handler, not a routes table). */
export type PublicFunctionId = { [K in OperationId]: (typeof routeSpecs)[K]['access'] extends 'public' ? (typeof routeSpecs)[K]['fn'] : never }[OperationId];

/** A route as the stack, the emulator and the edge read it. */
export interface RouteDef {
  readonly id: OperationId;
  readonly method: HttpMethod;
  readonly path: string;
  readonly fn: FunctionId;
  readonly access: RouteAccess;
  /** Whether the JWT authorizer guards it. */
  readonly auth: boolean;
  /**
   * OAuth scopes the authorizer requires (any one of them; API Gateway `authorizationScopes`).
   * A valid token without one gets API Gateway's 403 `{"message":"Forbidden"}`.
   */
  readonly scopes?: readonly string[];
  /** The rate class a caller spends (routes with a caller only). */
  readonly rate?: RateClass;
}

/** Every route, in declaration order (the order of the OpenAPI document and the docs table). */
export const routes: readonly RouteDef[] = Object.entries(routeSpecs).map(([id, spec]: [string, RouteSpec]) => ({
  id: id as OperationId,
  ...spec,
  auth: spec.access !== 'public',
  ...(spec.access === 'admin' && { scopes: [ADMIN_SCOPE] }),
}));

/** Route key as API Gateway writes it into `event.routeKey`. */
export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>): string => `${r.method} ${r.path}`;

const byKey = new Map(routes.map((r) => [routeKey(r), r]));
/** The route API Gateway names in `event.routeKey` (`PUT /following/{userId}`), if declared. */
export const routeByKey = (key: string): RouteDef | undefined => byKey.get(key);

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
export function resolveRoute(method: string, path: string): { route: RouteDef; params: Record<string, string> } | { route: undefined; allow: HttpMethod[] } {
  const allow: HttpMethod[] = [];
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    if (route.method === method) return { route, params };
    allow.push(route.method);
  }
  return { route: undefined, allow };
}
