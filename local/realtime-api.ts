/**
 * The local realtime API: what API Gateway's WebSocket API does for us, on 127.0.0.1.
 *   ws://127.0.0.1:<port>/live?token=<JWT>  the upgrade runs the authorizer's checks (the same
 *       local verifier as the HTTP API's JWT authorizer) and answers as API Gateway does: no token
 *       (the identity source is absent) 401, a refused one (the authorizer's Deny) 403 — no socket,
 *       then invokes the `$connect` route's function with the event API Gateway gives Lambda —
 *       anything but a 2xx refuses the connection; each frame a client sends is a `$default`
 *       event, a close is `$disconnect`.
 *   http://127.0.0.1:<port>/live/@connections/{id}  the management API the senders reach through
 *       @aws-sdk/client-apigatewaymanagementapi: POST sends the body as one text frame, GET
 *       describes the connection, DELETE closes it; an unknown or closed id is 410 GoneException.
 * Limits as in AWS: 128 KB per message either way (413 PayloadTooLargeException on a send).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { type FunctionId, functions, REALTIME_STAGE, type RealtimeRouteKey, realtimeRoutes } from '../lib/defs/index.js';
import { lambdaContext, loadHandler } from './handlers.js';
import type { JwtVerifier } from './jwt.js';
import { listenOnLoopback } from './ports.js';

/** API Gateway's WebSocket message limit. */
export const MAX_MESSAGE_BYTES = 128 * 1024;
const API_ID = 'localrealtime';

export interface RealtimeApi {
  /** Where clients connect (`ws://127.0.0.1:<port>/live`). */
  readonly url: string;
  /** The management endpoint the senders get as REALTIME_ENDPOINT. */
  readonly managementEndpoint: string;
  /** Counts, for tests and the bench: PostToConnection calls delivered, and refused as gone. */
  readonly stats: { sent: number; gone: number; connects: number; refused: number };
  /** Open connections now. */
  connectionCount(): number;
  stop(): Promise<void>;
}

interface Open {
  readonly socket: WebSocket;
  readonly userId: string;
  readonly connectedAt: number;
  readonly sourceIp: string;
  readonly userAgent: string;
  lastActiveAt: number;
}

const fnOf = (routeKey: RealtimeRouteKey): FunctionId => realtimeRoutes.find((r) => r.routeKey === routeKey)!.fn;

export async function startRealtimeApi(opts: { port: number; verify: JwtVerifier }): Promise<RealtimeApi> {
  const open = new Map<string, Open>();
  const stats = { sent: 0, gone: 0, connects: 0, refused: 0 };
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const server: Server = createServer((req, res) => {
    manage(req, res).catch((error: unknown) => {
      console.error('local realtime api failure', error);
      reply(res, 500, 'InternalServerErrorException', 'Internal server error');
    });
  });
  let domainName = '127.0.0.1';

  function requestContext(
    routeKey: RealtimeRouteKey,
    connectionId: string,
    c: Pick<Open, 'connectedAt' | 'sourceIp' | 'userAgent'>,
    extra: Record<string, unknown> = {},
  ) {
    const now = Date.now();
    return {
      routeKey,
      eventType: routeKey === '$connect' ? 'CONNECT' : routeKey === '$disconnect' ? 'DISCONNECT' : 'MESSAGE',
      extendedRequestId: randomUUID(),
      requestTime: new Date(now).toUTCString(),
      messageDirection: 'IN',
      stage: REALTIME_STAGE,
      connectedAt: c.connectedAt,
      requestTimeEpoch: now,
      identity: { sourceIp: c.sourceIp, userAgent: c.userAgent },
      requestId: randomUUID(),
      domainName,
      connectionId,
      apiId: API_ID,
      ...extra,
    };
  }

  async function invoke(routeKey: RealtimeRouteKey, event: { requestContext: { requestId: string }; [field: string]: unknown }): Promise<number> {
    const fn = fnOf(routeKey);
    try {
      const handler = await loadHandler(fn);
      const result = (await handler(event, lambdaContext(fn, functions[fn].timeoutSeconds * 1000, event.requestContext.requestId))) as
        { statusCode?: number } | undefined;
      return result?.statusCode ?? 200;
    } catch (error) {
      console.error(`local realtime api: ${routeKey} failed`, error);
      return 500;
    }
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade(req, socket, head).catch((error: unknown) => {
      console.error('local realtime api upgrade failure', error);
      refuse(socket, 500, 'Internal Server Error');
    });
  });

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname !== `/${REALTIME_STAGE}`) return refuse(socket, 404, 'Not Found');
    const token = url.searchParams.get('token');
    if (!token) {
      stats.refused++;
      return refuse(socket, 401, 'Unauthorized');
    }
    let userId: string | undefined;
    try {
      userId = (await opts.verify(token)).sub;
    } catch {
      userId = undefined;
    }
    if (!userId) {
      stats.refused++;
      return refuse(socket, 403, 'Forbidden');
    }
    const connectionId = randomBytes(12).toString('base64url');
    const c = { connectedAt: Date.now(), sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: String(req.headers['user-agent'] ?? '') };
    const query = Object.fromEntries(url.searchParams);
    const status = await invoke('$connect', {
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
      queryStringParameters: query,
      requestContext: requestContext('$connect', connectionId, c, { authorizer: { principalId: userId, integrationLatency: 0 } }),
      isBase64Encoded: false,
    });
    if (status < 200 || status > 299) {
      stats.refused++;
      return refuse(socket, status === 401 || status === 403 ? status : 500, status === 401 ? 'Unauthorized' : 'Forbidden');
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const entry: Open = { socket: ws, userId: userId, ...c, lastActiveAt: c.connectedAt };
      open.set(connectionId, entry);
      stats.connects++;
      const authorizer = { principalId: userId };
      ws.on('message', (data, isBinary) => {
        entry.lastActiveAt = Date.now();
        const body = Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]);
        void invoke('$default', {
          requestContext: requestContext('$default', connectionId, c, { messageId: randomUUID(), authorizer }),
          body: isBinary ? body.toString('base64') : body.toString('utf8'),
          isBase64Encoded: isBinary,
        });
      });
      ws.on('close', (code, reason) => {
        open.delete(connectionId);
        void invoke('$disconnect', {
          headers: {},
          requestContext: requestContext('$disconnect', connectionId, c, { disconnectStatusCode: code, disconnectReason: reason.toString(), authorizer }),
          isBase64Encoded: false,
        });
      });
    });
  }

  /** The `@connections` management API. */
  async function manage(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const match = /^\/([^/]+)\/@connections\/([^/]+)$/.exec(url.pathname);
    if (!match || match[1] !== REALTIME_STAGE) return reply(res, 404, 'NotFoundException', 'Not Found');
    const connectionId = decodeURIComponent(match[2]!);
    const body = await readAll(req);
    const entry = open.get(connectionId);
    if (!entry || entry.socket.readyState !== entry.socket.OPEN) {
      if (req.method === 'POST') stats.gone++;
      return reply(res, 410, 'GoneException', 'Gone');
    }
    switch (req.method) {
      case 'POST':
        if (body.length > MAX_MESSAGE_BYTES) return reply(res, 413, 'PayloadTooLargeException', 'Message too long');
        await new Promise<void>((resolve, reject) => entry.socket.send(body.toString('utf8'), (error) => (error ? reject(error) : resolve())));
        stats.sent++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      case 'GET':
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            ConnectedAt: new Date(entry.connectedAt).toISOString(),
            LastActiveAt: new Date(entry.lastActiveAt).toISOString(),
            Identity: { SourceIp: entry.sourceIp, UserAgent: entry.userAgent },
          }),
        );
        return;
      case 'DELETE':
        entry.socket.close(1000, 'Going away');
        res.writeHead(204).end();
        return;
      default:
        return reply(res, 405, 'MethodNotAllowedException', 'Method Not Allowed');
    }
  }

  const port = await listenOnLoopback(server, opts.port);
  domainName = `127.0.0.1:${port}`;
  return {
    url: `ws://127.0.0.1:${port}/${REALTIME_STAGE}`,
    managementEndpoint: `http://127.0.0.1:${port}/${REALTIME_STAGE}`,
    stats,
    connectionCount: () => open.size,
    stop: async () => {
      for (const entry of open.values()) entry.socket.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A refused upgrade, as API Gateway answers it: a plain HTTP response and no socket. */
function refuse(socket: Duplex, status: number, text: string): void {
  const body = JSON.stringify({ message: text });
  socket.end(`HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/** An error as the management API sends it (the SDK reads the code from x-amzn-ErrorType). */
function reply(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': code }).end(JSON.stringify({ message }));
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
