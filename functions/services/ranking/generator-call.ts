/**
 * Calling a feed generator (model/feed-generator.ts): one GET for a skeleton, one POST to forward
 * interactions. The generator is untrusted: each call has a deadline, follows no redirect, reads at
 * most MAX_SKELETON_BYTES and checks the shape of what came back. Anything else is a
 * GeneratorFailure naming what went wrong, never an exception of the HTTP client.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)
import { generatorUrlProblem, isPrivateAddress, MAX_SKELETON_BYTES } from '../../model/feed-generator.js';

export interface Generator {
  readonly url: string;
  readonly timeoutMs: number;
  readonly personalized: boolean;
  readonly interactions: boolean;
}

export interface SkeletonItem {
  readonly activityId: string;
  readonly reason?: Record<string, unknown>;
}

export interface Skeleton {
  /** Each entry as sent: a malformed one is undefined, left for the caller to count out. */
  readonly items: readonly (SkeletonItem | undefined)[];
  readonly cursor?: string;
}

/** Why a call gave no skeleton; `message` is what the reader's 502 says. */
export class GeneratorFailure extends Error {
  constructor(
    readonly kind: 'timeout' | 'status' | 'too_large' | 'junk' | 'network' | 'refused',
    message: string,
  ) {
    super(message);
    this.name = 'GeneratorFailure';
  }
}

/** A reason is passed on when it is a small object (Bluesky's skeleton reasons are). */
const MAX_REASON_CHARS = 500;

const itemSchema = z.looseObject({ activityId: z.string().min(1).max(300), reason: z.record(z.string(), z.unknown()).optional() });
const skeletonSchema = z.looseObject({ items: z.array(z.unknown()), cursor: z.string().optional() });

/** A reason's JSON if it is small (a reason nested too deep to serialize is no reason). */
function smallReason(reason: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (reason === undefined) return undefined;
  try {
    return JSON.stringify(reason).length <= MAX_REASON_CHARS ? reason : undefined;
  } catch {
    return undefined;
  }
}

export function itemOf(raw: unknown): SkeletonItem | undefined {
  const parsed = itemSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const reason = smallReason(parsed.data.reason);
  return { activityId: parsed.data.activityId, ...(reason !== undefined && { reason }) };
}

/** The body, up to MAX_SKELETON_BYTES: a longer one is refused without reading the rest. */
async function boundedText(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_SKELETON_BYTES) throw new GeneratorFailure('too_large', `The feed generator's answer is over ${MAX_SKELETON_BYTES} bytes.`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of (res.body ?? []) as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_SKELETON_BYTES) throw new GeneratorFailure('too_large', `The feed generator's answer is over ${MAX_SKELETON_BYTES} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function failureOf(e: unknown, timeoutMs: number): GeneratorFailure {
  if (e instanceof DOMException && e.name === 'TimeoutError')
    return new GeneratorFailure('timeout', `The feed generator did not answer within ${timeoutMs} ms.`);
  return new GeneratorFailure('network', 'The feed generator could not be reached (or it redirected, which is not followed).');
}

/**
 * The URL's rules again (a definition stored under other settings), then the addresses its name
 * resolves to: none may be private. (A resolver answering differently at connect time is not
 * caught: only an admin names a generator.)
 */
async function checkTarget(url: URL, loopback: boolean, timeoutMs: number): Promise<void> {
  const problem = generatorUrlProblem(url.href, loopback);
  if (problem !== undefined) throw new GeneratorFailure('refused', `The feed generator's URL is not allowed: it must be ${problem}.`);
  if (isIP(url.hostname) !== 0) return;
  const addresses = await Promise.race([
    lookup(url.hostname, { all: true }),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new GeneratorFailure('timeout', `The feed generator's host did not resolve within ${timeoutMs} ms.`)), timeoutMs).unref(),
    ),
  ]).catch((e: unknown) => {
    throw e instanceof GeneratorFailure ? e : new GeneratorFailure('network', "The feed generator's host name does not resolve.");
  });
  if (addresses.some((a) => isPrivateAddress(a.address)))
    throw new GeneratorFailure('refused', "The feed generator's host name resolves to a private address.");
}

/** One call under the generator's deadline, which also bounds reading the body. */
async function send(url: URL, init: RequestInit, timeoutMs: number, loopback: boolean): Promise<Response> {
  await checkTarget(url, loopback, timeoutMs);
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw failureOf(e, timeoutMs);
  }
}

/** Let go of a body not read: a connection already dropped rejects, which is nothing to report. */
const discard = (res: Response) => res.body?.cancel().catch(() => undefined);

/** GET `url?limit=&cursor=` (with `token` as a bearer, when personalized): the skeleton it answered. */
export async function fetchSkeleton(gen: Generator, req: { limit: number; cursor?: string; token?: string }, loopback: boolean): Promise<Skeleton> {
  const url = new URL(gen.url);
  url.searchParams.set('limit', String(req.limit));
  if (req.cursor !== undefined) url.searchParams.set('cursor', req.cursor);
  const headers: Record<string, string> = { accept: 'application/json', ...(req.token !== undefined && { authorization: `Bearer ${req.token}` }) };
  const res = await send(url, { headers }, gen.timeoutMs, loopback);
  if (!res.ok) {
    await discard(res);
    throw new GeneratorFailure('status', `The feed generator answered ${res.status}.`);
  }
  const text = await boundedText(res).catch((e: unknown) => {
    throw e instanceof GeneratorFailure ? e : failureOf(e, gen.timeoutMs); // the deadline covers the body too: a trickle is cut off
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new GeneratorFailure('junk', 'The feed generator answered something other than JSON.');
  }
  const parsed = skeletonSchema.safeParse(json);
  if (!parsed.success) throw new GeneratorFailure('junk', 'The feed generator answered JSON without an `items` array (and an optional string `cursor`).');
  return { items: parsed.data.items.map(itemOf), ...(parsed.data.cursor !== undefined && { cursor: parsed.data.cursor }) };
}

/** Forwarding interactions waits at most this long (or the generator's own timeout, if shorter): the reader's POST waits on it. */
const FORWARD_TIMEOUT_MS = 2000;

/** POST the reader's interactions to the generator (a bearer token naming them): true when it took them (2xx). */
export async function postInteractions(
  gen: Generator,
  items: readonly { activityId: string; event: string }[],
  token: string,
  loopback: boolean,
): Promise<boolean> {
  const res = await send(
    new URL(gen.url),
    { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ items }) },
    Math.min(gen.timeoutMs, FORWARD_TIMEOUT_MS),
    loopback,
  );
  await discard(res);
  return res.ok;
}
