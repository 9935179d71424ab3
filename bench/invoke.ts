/**
 * Calls an HTTP route's handler in-process with the payload-2.0 event API Gateway (and
 * local/http-api.ts) would build — no HTTP server, no JWT verification — so a scenario can time
 * the handler alone.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { defaultRoute, functions, resolveRoute, routeKey } from '../lib/defs/index.js';
import { lambdaContext, loadHandler } from '../local/handlers.js';
import { callCount } from './capacity.js';
import type { BenchContext } from './context.js';
import { timed } from './stats.js';

export interface InvokeResult {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
  readonly ms: number;
}

/** The event of a request as `userId`; a path no route has goes to the `$default` route, as in API Gateway. */
export function httpEvent(method: string, pathWithQuery: string, userId: string, json?: unknown): APIGatewayProxyEventV2WithJWTAuthorizer {
  const url = new URL(pathWithQuery, 'http://local');
  const resolved = resolveRoute(method, url.pathname);
  const key = resolved.route ? routeKey(resolved.route) : defaultRoute.routeKey;
  const params = resolved.route ? resolved.params : {};
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = v;
  const now = new Date();
  const headers: Record<string, string> = { host: '127.0.0.1', 'user-agent': 'tickfeed-bench' };
  if (json !== undefined) headers['content-type'] = 'application/json';
  return {
    version: '2.0',
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    body: json === undefined ? undefined : JSON.stringify(json),
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: {
        principalId: '',
        integrationLatency: 0,
        jwt: { claims: { sub: userId, token_use: 'access' }, scopes: [] },
      },
      domainName: '127.0.0.1',
      domainPrefix: 'local',
      http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'tickfeed-bench' },
      requestId: randomUUID(),
      routeKey: key,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
  };
}

/** Invokes the handler behind `method path` in this process and times it. */
export async function invokeRoute(method: string, pathWithQuery: string, userId: string, json?: unknown): Promise<InvokeResult> {
  const event = httpEvent(method, pathWithQuery, userId, json);
  const fn = resolveRoute(method, event.rawPath).route?.fn ?? defaultRoute.fn;
  const handler = await loadHandler(fn);
  const context = lambdaContext(fn, functions[fn].timeoutSeconds * 1000, event.requestContext.requestId);
  const { ms, value: result } = await timed(async () => (await handler(event, context)) as APIGatewayProxyStructuredResultV2);
  return { status: result.statusCode ?? 200, body: result.body ? JSON.parse(result.body) : undefined, ms };
}

/** `invokeRoute` on the handlers' metered client, answered 200: the result with its read units and DynamoDB calls. */
export async function meteredRoute(ctx: BenchContext, method: string, pathWithQuery: string, userId: string) {
  const { value: res, spent } = await ctx.handlerCapacity.measure(() => invokeRoute(method, pathWithQuery, userId));
  if (res.status !== 200) throw new Error(`${method} ${pathWithQuery}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return { res, ms: res.ms, read: spent.read, calls: callCount(spent), spent };
}
