/**
 * The realtime (WebSocket) API, declared once for the CDK stack and the local runtime: its routes
 * and the function behind them, its stage, and the env vars through which functions learn where
 * it is. API Gateway WebSocket API: `$connect` (a Lambda authorizer checks the JWT from `?token=`
 * — browsers cannot set headers on a WebSocket — and the route records the connection),
 * `$disconnect` (forgets it), `$default` (anything a client sends: ignored). Pushes go out through
 * the `@connections` management API (PostToConnection), from the functions whose definition says
 * `realtime: { pushes: true }` — the only ones granted `execute-api:ManageConnections`.
 * See docs/realtime.md.
 */
import type { FunctionId } from './functions.js';

export type RealtimeRouteKey = '$connect' | '$disconnect' | '$default';

export interface RealtimeRouteDef {
  readonly routeKey: RealtimeRouteKey;
  readonly fn: FunctionId;
  /** Runs the authorizer (only `$connect`: API Gateway authorizes a connection once). */
  readonly auth: boolean;
}

export const realtimeRoutes: readonly RealtimeRouteDef[] = [
  { routeKey: '$connect', fn: 'realtimeSocket', auth: true },
  { routeKey: '$disconnect', fn: 'realtimeSocket', auth: false },
  { routeKey: '$default', fn: 'realtimeSocket', auth: false },
];

/** The function that authorizes `$connect` in AWS (locally the WebSocket server checks the token as the HTTP API does). */
export const realtimeAuthorizerFn: FunctionId = 'realtimeAuthorizer';

/** The stage name: part of both the client URL and the management endpoint. */
export const REALTIME_STAGE = 'live';

/** Env var of the pushing functions: the `@connections` management endpoint (`https://{api}.execute-api.{region}.amazonaws.com/{stage}`). */
export const REALTIME_ENDPOINT_ENV = 'REALTIME_ENDPOINT';
/** Env var of the function behind GET /realtime: the URL clients connect to (`wss://…/{stage}`). */
export const REALTIME_URL_ENV = 'REALTIME_URL';
/** Env vars of the authorizer: the JWT issuer and audiences the HTTP API trusts (comma-separated). */
export const REALTIME_JWT_ISSUER_ENV = 'JWT_ISSUER';
export const REALTIME_JWT_AUDIENCE_ENV = 'JWT_AUDIENCE';

/** API Gateway closes a connection after 2 h; its item outlives that a little, then TTL takes a leftover. */
export const CONNECTION_TTL_SECONDS = 2 * 3600 + 600;

/** The metric a failed send (anything but a dead connection) records; its alarm is in the stack. */
export const PUSH_FAILURE_METRIC = 'PushFailures';
