/**
 * The local HTTP API: a Node HTTP server on 127.0.0.1 that does what API Gateway's HTTP API does
 * for us — match the route (or `$default`), run the JWT authorizer on authenticated routes
 * (401 `{"message":"Unauthorized"}` like AWS; 403 `{"message":"Forbidden"}` when the route requires
 * scopes and the token has none of them), build a payload-2.0 event, invoke the handler,
 * and turn its result into the HTTP response (500/503 like AWS when it throws or times out).
 * What the server refuses before any route — a request target over 8 KiB (414), headers over
 * Node's 16 KiB (431), a request HTTP cannot parse (400), one too slow to arrive (408) — is
 * answered problem+json too, never a bare status line.
 * Before any of that, the local web console (`site`, local/console-site.ts) takes paths under
 * /console: they exist here only, never in the route table or in AWS.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { defaultRoute, type FunctionId, functions, hasAnyScope, resolveRoute, routeKey, scopesOf } from '../lib/defs/index.js';
import { PROBLEM_CONTENT_TYPE } from '../functions/http/problem.js';
import { localAccountId } from './aws-local.js';
import type { ConsoleSite } from './console-site.js';
import { lambdaContext, withInstance } from './handlers.js';
import type { JwtVerifier } from './jwt.js';
import { listenOnLoopback } from './ports.js';

/** API Gateway's payload limit. Bodies above it never reach a handler. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
/** The longest request target (path and query) served: API Gateway bounds the request line too. */
export const MAX_REQUEST_TARGET_BYTES = 8192;
/** HTTP API's integration timeout. */
const INTEGRATION_TIMEOUT_MS = 30_000;
const TEXT_TYPES = /^(text\/|application\/(json|.*\+json|xml|.*\+xml|x-www-form-urlencoded|javascript))/i;

export interface HttpApi {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startHttpApi(opts: { port: number; verify: JwtVerifier; site?: ConsoleSite }): Promise<HttpApi> {
  const server: Server = createServer((req, res) => {
    handle(req, res, opts.verify, opts.site).catch((error: unknown) => {
      console.error('local http api failure', error);
      send(res, 500, { 'content-type': 'application/json' }, '{"message":"Internal Server Error"}');
    });
  });
  server.on('clientError', answerClientError);
  // Idle keep-alive connections stay open a minute (Node's default is 5 s). A client closes its
  // idle sockets a little before the server's announced timeout; with 5 s, a busy machine's event
  // loop lag lets a client send on a socket the server is just closing ("other side closed").
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  const port = await listenOnLoopback(server, opts.port);
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, verify: JwtVerifier, site?: ConsoleSite): Promise<void> {
  if (Buffer.byteLength(req.url ?? '') > MAX_REQUEST_TARGET_BYTES) {
    // Read the body to its end first: closing on unread bytes would reset the connection under the answer.
    await readBody(req);
    return sendProblem(res, 414, `The request target exceeds ${MAX_REQUEST_TARGET_BYTES} bytes.`);
  }
  const url = new URL(req.url ?? '/', 'http://local');
  if (site && (await site(req, res, url))) return;
  const body = await readBody(req);
  if (body === undefined) {
    return send(res, 413, { 'content-type': 'application/json' }, '{"message":"Request Entity Too Large"}');
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const resolved = resolveRoute(method, url.pathname);
  const route = resolved.route;
  const fn: FunctionId = route ? route.fn : defaultRoute.fn;
  const key = route ? routeKey(route) : defaultRoute.routeKey;

  let claims: Record<string, string> | undefined;
  if (route?.auth) {
    claims = await authorize(req.headers.authorization, verify);
    if (!claims) return send(res, 401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }, '{"message":"Unauthorized"}');
    // API Gateway's authorizationScopes: the token's `scope` claim must hold one of the route's.
    if (route.scopes?.length && !hasAnyScope(scopesOf(claims), route.scopes)) {
      const wanted = route.scopes.join(' ');
      return send(
        res,
        403,
        { 'content-type': 'application/json', 'www-authenticate': `Bearer scope="${wanted}" error="insufficient_scope"` },
        '{"message":"Forbidden"}',
      );
    }
  }

  const pathParameters = 'params' in resolved ? resolved.params : undefined;
  const event = buildEvent(req, url, method, key, body, pathParameters, claims);
  const timeoutMs = Math.min(functions[fn].timeoutSeconds * 1000, INTEGRATION_TIMEOUT_MS);
  let result: unknown;
  try {
    // Timed from when an instance is ready: a cold start or the wait for an idle instance is not
    // the invocation's time (Lambda's function timeout does not count the init phase).
    result = await withInstance(fn, (handler) => withTimeout(handler(event, lambdaContext(fn, timeoutMs, event.requestContext.requestId)), timeoutMs));
  } catch (error) {
    if (error instanceof TimeoutError) return send(res, 503, { 'content-type': 'application/json' }, '{"message":"Service Unavailable"}');
    console.error(`handler ${fn} threw`, error);
    return send(res, 500, { 'content-type': 'application/json' }, '{"message":"Internal Server Error"}');
  }
  writeResult(res, result);
}

/** Verify a `Bearer` token; returns the claims as API Gateway passes them (string values). */
async function authorize(header: string | undefined, verify: JwtVerifier): Promise<Record<string, string> | undefined> {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!match) return undefined;
  try {
    const payload = await verify(match[1]!);
    return Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, Array.isArray(v) ? `[${v.join(' ')}]` : String(v)]));
  } catch {
    return undefined;
  }
}

function buildEvent(
  req: IncomingMessage,
  url: URL,
  method: string,
  key: string,
  body: Buffer,
  pathParameters: Record<string, string> | undefined,
  claims: Record<string, string> | undefined,
): APIGatewayProxyEventV2WithJWTAuthorizer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // A Map, then Object.fromEntries: every name becomes an own property, as in the JSON event
  // Lambda receives. Plain assignment would let `?__proto__=1` vanish and `?toString=1` pick up
  // Object.prototype's function (`name in {}` is true for it).
  const collected = new Map<string, string>();
  for (const [name, value] of url.searchParams) {
    const seen = collected.get(name);
    collected.set(name, seen === undefined ? value : `${seen},${value}`);
  }
  const query: Record<string, string> = Object.fromEntries(collected);
  const isText = TEXT_TYPES.test(headers['content-type'] ?? 'text/plain');
  const now = new Date();
  const requestId = randomUUID();
  return {
    version: '2.0',
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: req.headers.cookie ? req.headers.cookie.split(/;\s*/) : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: pathParameters && Object.keys(pathParameters).length ? pathParameters : undefined,
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
    stageVariables: undefined,
    requestContext: {
      accountId: localAccountId,
      apiId: 'local',
      authorizer: { principalId: '', integrationLatency: 0, jwt: { claims: claims ?? {}, scopes: [] } },
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: key,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
  };
}

/** Payload-2.0 response rules: a structured result, or any other value sent as JSON with 200. */
function writeResult(res: ServerResponse, result: unknown): void {
  const structured = result as APIGatewayProxyStructuredResultV2 | undefined;
  if (structured && typeof structured === 'object' && 'statusCode' in structured) {
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(structured.headers ?? {})) headers[k.toLowerCase()] = String(v);
    if (structured.cookies?.length) headers['set-cookie'] = structured.cookies;
    const raw = structured.body ?? '';
    const payload = structured.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
    return send(res, structured.statusCode ?? 200, headers, payload);
  }
  const text = typeof result === 'string' ? result : JSON.stringify(result ?? null);
  send(res, 200, { 'content-type': 'application/json' }, text);
}

/** An RFC 9457 body for what the server itself refuses (`about:blank`: the status says it all). */
function problemBody(status: number, detail: string): string {
  return JSON.stringify({ type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail });
}

function sendProblem(res: ServerResponse, status: number, detail: string): void {
  send(res, status, { 'content-type': PROBLEM_CONTENT_TYPE }, problemBody(status, detail));
}

/**
 * Node's parser refuses a request before any handler sees it (and would write a bare status
 * line): answer problem+json on the raw socket and close it. Header overflow is a 414 when the
 * request line alone is too long, else a 431.
 */
function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let status = 400;
  let detail = 'The request is not valid HTTP/1.1.';
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const head = error.rawPacket?.subarray(0, MAX_REQUEST_TARGET_BYTES + 64).toString('latin1') ?? '';
    const lineEnd = head.indexOf('\r\n');
    if (/^[A-Z]+ /.test(head) && (lineEnd === -1 || lineEnd > MAX_REQUEST_TARGET_BYTES)) {
      status = 414;
      detail = `The request target exceeds ${MAX_REQUEST_TARGET_BYTES} bytes.`;
    } else {
      status = 431;
      detail = 'The request line and headers exceed 16 KiB.';
    }
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    detail = 'The request did not arrive in time.';
  }
  const body = problemBody(status, detail);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: ${PROBLEM_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function send(res: ServerResponse, status: number, headers: Record<string, string | string[]>, body: string | Buffer): void {
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PAYLOAD_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

class TimeoutError extends Error {}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
