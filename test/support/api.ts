/**
 * The one way tests call the HTTP API: `api(method, path, options)`, against the shared stack or,
 * with `on`, a test file's own. `as` mints a token for that user on the target's keys.
 *
 * @example
 *   await api('PUT', `/following/${author}`, { as: reader });
 *   await api('POST', '/activities', { on: own, as: author, json: { verb: 'post' } });
 *   await api('DELETE', `/users/${victim}`, { as: uid('backend'), scope: ADMIN });
 */
import type { Activity } from '../../functions/model/activity.js';
import { ADMIN_SCOPE } from '../../lib/defs/scopes.js';
import { type MintOptions, mintToken } from '../../local/jwt.js';
import { shared } from './local.js';
import { recordResponse } from './response-log.js';
import type { TestStack } from './stack-info.js';

/** The scope of the product backend's tokens. */
export const ADMIN = ADMIN_SCOPE;

type ApiTarget = Pick<TestStack, 'apiUrl' | 'keys' | 'checkResponses' | 'clockAheadMs'>;

export interface ApiOptions {
  /** The stack to call (default: the shared stack). */
  readonly on?: ApiTarget;
  /** Call as this user: a token is minted for it (with `scope`, e.g. ADMIN, if given). */
  readonly as?: string;
  readonly scope?: string;
  /** A bearer token sent as is (instead of `as`). */
  readonly token?: string;
  /** A JSON body (content-type application/json unless `headers` say otherwise). */
  readonly json?: unknown;
  /** A string body sent as is. */
  readonly raw?: string;
  /** Query parameters, appended to `path`. */
  readonly query?: Readonly<Record<string, string | number>>;
  readonly headers?: Readonly<Record<string, string>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a caller names the body type; any is its default
export interface ApiResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  /** The body parsed as JSON, or its text when it is not JSON, or undefined when empty. */
  readonly body: T;
  /** The body as received. */
  readonly text: string;
}

/** A bearer token for `sub` that the stack `on` (default: the shared one) accepts. */
export function token(sub: string, opts: MintOptions = {}, on: ApiTarget = shared): Promise<string> {
  if (!on.clockAheadMs) return mintToken(on.keys, sub, opts);
  // Issued a minute ago and valid for an hour, on the stack's clock.
  const now = Math.floor((Date.now() + on.clockAheadMs) / 1000);
  return mintToken(on.keys, sub, { issuedAt: now - 60, expiresIn: now + 3600, ...opts });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a caller names the body type; any is its default
export async function api<T = any>(method: string, path: string, opts: ApiOptions = {}): Promise<ApiResponse<T>> {
  const on = opts.on ?? shared;
  const headers: Record<string, string> = { ...opts.headers };
  const bearer = opts.token ?? (opts.as ? await token(opts.as, opts.scope ? { scope: opts.scope } : {}, on) : undefined);
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let body: string | undefined = opts.raw;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] ??= 'application/json';
  }
  const query = new URLSearchParams(Object.entries(opts.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
  const target = query.size ? `${path}${path.includes('?') ? '&' : '?'}${query.toString()}` : path;
  const res = await fetch(`${on.apiUrl}${target}`, { method, headers, body });
  const text = await res.text();
  if (on.checkResponses) recordResponse({ method, path: target, status: res.status, headers: res.headers, text });
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/**
 * `api` for an idempotent request sent in a burst: sent again while it answers 503 — what a
 * timed-out function (the 10 s of an HTTP function, reachable when a loaded CI machine queues a
 * burst's calls) or contention past bounded retries answers, and what tells a client to retry.
 * Any other answer is returned; after `attempts` 503s the last one is.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a caller names the body type; any is its default
export async function apiRetrying503<T = any>(method: string, path: string, opts: ApiOptions = {}, attempts = 4): Promise<ApiResponse<T>> {
  for (let attempt = 1; ; attempt++) {
    const res = await api<T>(method, path, opts);
    if (res.status !== 503 || attempt >= attempts) return res;
  }
}

/** Post as `user` and insist on 201; the activity posted. */
export async function mustPost(user: string, body: unknown = { verb: 'post' }, on: ApiTarget = shared): Promise<Activity> {
  const res = await api<Activity>('POST', '/activities', { on, as: user, json: body });
  if (res.status !== 201) throw new Error(`POST /activities as ${user}: ${res.status} ${res.text}`);
  return res.body;
}
