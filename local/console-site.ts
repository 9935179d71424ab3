/**
 * The web console's side of the local HTTP API (local only: nothing here is in lib/defs/routes.ts
 * or the CDK app). Under `/console`:
 *
 * - `/console/` and `/console/assets/*`: the built console (local/console/dist, see console-build.ts);
 * - `/console/token?user=alice[&admin=1]`: a bearer token for that user, signed with the stack's
 *   key (local/jwt.ts), `admin=1` adding the tickfeed/admin scope (the rollups view needs it);
 * - `/console/config.json`: what the console cannot ask the API: the configured rollup series.
 *
 * The token endpoint answers only requests whose Host is a loopback name, so a web page on another
 * site cannot reach it through DNS rebinding; it sends no CORS headers, so other origins cannot read it.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { isValidUserId, USER_ID_RULE } from '../functions/model/user-id.js';
import { ADMIN_SCOPE } from '../lib/defs/index.js';
import { countSeries, type RollupSpec } from '../lib/defs/rollup-spec.js';
import { type LocalKeys, mintToken } from './jwt.js';

export const CONSOLE_PREFIX = '/console';

export interface ConsoleSiteOptions {
  /** The built console (index.html, assets/). */
  readonly assetsDir: string;
  readonly keys: LocalKeys;
  /** The stack's rollup spec (ROLLUPS), for the series picker. */
  readonly rollups: RollupSpec;
  /** The realtime WebSocket API (`ws://127.0.0.1:<port>/live`): another origin, which the CSP must let the page connect to. */
  readonly realtimeUrl?: string;
}

/** Handles a request under /console; false for any other path (the API's routes take it). */
export type ConsoleSite = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

// Scripts and styles come from the console's own files only; uPlot sizes its canvas through the
// CSSOM, which style-src does not restrict.
const CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The CSP, with the realtime API's origin (only) added to what the page may connect to. */
const cspWith = (realtimeUrl: string | undefined) => (realtimeUrl ? `${CSP}; connect-src 'self' ${new URL(realtimeUrl).origin}` : CSP);

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function createConsoleSite(opts: ConsoleSiteOptions): ConsoleSite {
  const root = resolve(opts.assetsDir);
  const series = seriesOf(opts.rollups);
  const csp = cspWith(opts.realtimeUrl);

  return async (req, res, url) => {
    const path = url.pathname;
    if (path !== CONSOLE_PREFIX && !path.startsWith(`${CONSOLE_PREFIX}/`)) return false;
    const method = (req.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      send(res, 405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }, 'GET only\n');
      return true;
    }
    if (path === CONSOLE_PREFIX) {
      // Relative asset URLs in index.html resolve against /console/, not /.
      send(res, 308, { location: `${CONSOLE_PREFIX}/${url.search}` }, '');
      return true;
    }
    const rest = path.slice(CONSOLE_PREFIX.length + 1);
    if (rest === 'token') await sendToken(req, res, url, opts.keys);
    else if (rest === 'config.json') sendJson(res, 200, { series, adminScope: ADMIN_SCOPE });
    else await sendAsset(res, root, rest === '' ? 'index.html' : rest, csp);
    return true;
  };
}

/** Every series the spec produces: a count per event type it names, and each of its entries. */
export function seriesOf(spec: RollupSpec): string[] {
  const names = new Set<string>();
  for (const [eventType, entries] of spec.byEventType) {
    names.add(countSeries(eventType));
    for (const entry of entries) names.add(entry.name);
  }
  return [...names].sort();
}

async function sendToken(req: IncomingMessage, res: ServerResponse, url: URL, keys: LocalKeys): Promise<void> {
  const hostname = new URL(`http://${req.headers.host ?? ''}`).hostname;
  if (!LOOPBACK_HOSTS.has(hostname)) {
    return sendJson(res, 403, { message: `tokens are minted for loopback hosts only, not ${JSON.stringify(hostname)}` });
  }
  const user = url.searchParams.get('user') ?? '';
  if (!isValidUserId(user)) return sendJson(res, 400, { message: `user: a user id (${USER_ID_RULE})` });
  const admin = url.searchParams.get('admin') === '1';
  const token = await mintToken(keys, user, admin ? { scope: ADMIN_SCOPE } : {});
  sendJson(res, 200, { user, admin, token });
}

async function sendAsset(res: ServerResponse, root: string, relative: string, csp: string): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return sendText(res, 400, 'malformed path\n');
  }
  const file = resolve(root, decoded);
  // Anything that resolves outside the build (`..`, an absolute path) is simply not there.
  if (!file.startsWith(root + sep) || decoded.includes('\0')) return sendText(res, 404, 'not found\n');
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (relative === 'index.html' && code === 'ENOENT') {
      return sendText(res, 503, 'The console is not built: run `npm run console:build` (npm start builds it).\n');
    }
    if (code === 'ENOENT' || code === 'EISDIR') return sendText(res, 404, 'not found\n');
    throw error;
  }
  const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
  // Vite puts a content hash in every asset name; index.html names the current ones.
  const cache = relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
  send(res, 200, { 'content-type': type, 'cache-control': cache, 'content-security-policy': csp, 'x-content-type-options': 'nosniff' }, body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, { 'content-type': 'application/json', 'cache-control': 'no-store' }, JSON.stringify(body));
}

function sendText(res: ServerResponse, status: number, text: string): void {
  send(res, status, { 'content-type': 'text/plain; charset=utf-8' }, text);
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
