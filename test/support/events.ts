/** Typed HTTP API (payload 2.0) event factory for calling handlers in-process. */
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';

export function httpEvent(opts: {
  routeKey: string;
  path: string;
  sub: string;
  query?: Record<string, string>;
  pathParameters?: Record<string, string>;
  body?: string;
  headers?: Record<string, string>;
}): APIGatewayProxyEventV2WithJWTAuthorizer {
  const [method] = opts.routeKey.split(' ');
  return {
    version: '2.0',
    routeKey: opts.routeKey,
    rawPath: opts.path,
    rawQueryString: new URLSearchParams(opts.query ?? {}).toString(),
    headers: opts.headers ?? {},
    queryStringParameters: opts.query,
    pathParameters: opts.pathParameters,
    body: opts.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      authorizer: { principalId: '', integrationLatency: 0, jwt: { claims: { sub: opts.sub }, scopes: [] } },
      domainName: 'test',
      domainPrefix: 'test',
      http: { method: method!, path: opts.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'test',
      routeKey: opts.routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
}
