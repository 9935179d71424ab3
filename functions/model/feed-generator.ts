/**
 * Feed generators (docs/ranked-feeds.md#feed-generators): a ranked feed whose definition names an
 * external service that answers a skeleton of activity ids, which tickfeed hydrates. The service
 * is untrusted, so everything here bounds it: which URLs may be called, how far its cursor may
 * lead, and when a failing one stops being called (the breaker). Pure: the clock is a parameter.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { textOfBase64url } from './base64url.js';

/** A generator's answer is read up to this many bytes; a longer one is refused as a whole. */
export const MAX_SKELETON_BYTES = 256 * 1024;
/** A generator cursor longer than this many bytes ends the reading (ours wraps it, within the list cursor's 2,048 characters). */
export const MAX_GENERATOR_CURSOR = 1000;
/** Pages one reading of a generator feed may go: a cursor that keeps coming back new ends here. */
export const MAX_GENERATOR_PAGES = 100;
/** A non-personalized answer is reused this long for the same page of the same definition. */
export const SKELETON_CACHE_SECONDS = 30;
/** Failures in a row that open the breaker, and how long it then stays open. */
export const BREAKER_FAILURES = 3;
export const BREAKER_OPEN_MS = 30_000;
/** A personalized call's token names the reader this long. */
export const READER_TOKEN_SECONDS = 60;

export const skeletonCacheKey = (feedId: string, digest: string) => ({ pk: `rgen#${feedId}`, sk: `c#${digest}` });

/** Where a cursor was handed out: to whom, by which definition (its secret, new at each PUT). */
export interface CursorScope {
  readonly secret: string;
  readonly reader: string;
}

const macOf = (scope: CursorScope, pages: number, cursor: string) =>
  createHmac('sha256', Buffer.from(scope.secret, 'base64url')).update(`${scope.reader}\n${pages}\n${cursor}`).digest('base64url').slice(0, 22);

/**
 * Our cursor of a generator feed: how many pages were served and the generator's own cursor,
 * signed for the reader it was handed to and the definition that handed it out — another reader's
 * or another feed's cursor (or one from before the feed's last PUT) is refused, never passed on.
 */
export const encodeGeneratorCursor = (scope: CursorScope, pages: number, cursor: string): string =>
  Buffer.from(`${pages}.${macOf(scope, pages, cursor)}.${cursor}`, 'utf8').toString('base64url');

export function decodeGeneratorCursor(scope: CursorScope, cursor: string): { pages: number; cursor: string } | undefined {
  const text = textOfBase64url(cursor);
  if (text === undefined) return undefined;
  const m = /^(\d{1,3})\.([A-Za-z0-9_-]{22})\.([\s\S]+)$/.exec(text);
  if (!m) return undefined;
  const pages = Number(m[1]);
  const mac = Buffer.from(m[2]!);
  const expected = Buffer.from(macOf(scope, pages, m[3]!));
  if (!timingSafeEqual(mac, expected)) return undefined;
  return pages >= 1 && pages < MAX_GENERATOR_PAGES ? { pages, cursor: m[3]! } : undefined;
}

/**
 * Where a reading goes next: nowhere when the generator gave no cursor, an empty page, the cursor
 * it was sent (a loop), one longer than MAX_GENERATOR_CURSOR bytes, or the last page allowed.
 */
export function nextGeneratorCursor(scope: CursorScope, sent: { pages: number; cursor?: string }, answered: { cursor?: string; items: number }): string | null {
  const c = answered.cursor;
  if (c === undefined || c === '' || c === sent.cursor || answered.items === 0) return null;
  if (Buffer.byteLength(c, 'utf8') > MAX_GENERATOR_CURSOR || sent.pages + 1 >= MAX_GENERATOR_PAGES) return null;
  return encodeGeneratorCursor(scope, sent.pages + 1, c);
}

/**
 * IPv4 ranges a Lambda must not be aimed at: this network, private, shared (CGNAT), loopback,
 * link-local (the instance metadata service), IETF protocol assignments, documentation and
 * benchmarking, multicast and reserved.
 */
const PRIVATE_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/3',
];

const v4 = (dotted: string) => dotted.split('.').reduce((n, part) => n * 256 + Number(part), 0);

function isPrivateV4(address: string): boolean {
  const n = v4(address);
  return PRIVATE_V4.some((cidr) => {
    const [base, bits] = cidr.split('/');
    const size = 2 ** (32 - Number(bits));
    return Math.floor(n / size) === Math.floor(v4(base!) / size);
  });
}

/**
 * Whether an address (as a resolver answers it) is one a generator must not be: a private IPv4
 * range, or any IPv6 address but a global unicast one (2000::/3) that does not embed IPv4
 * (6to4 2002::/16, Teredo 2001::/32, NAT64 64:ff9b::/96 are refused too).
 */
export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return isPrivateV4(address);
  if (kind !== 6) return true;
  const a = address.toLowerCase();
  return !/^[23][0-9a-f]{3}:/.test(a) || a.startsWith('2002:') || /^2001:0{0,4}:/.test(a);
}

/**
 * Why tickfeed may not call this URL, or undefined when it may: HTTPS to a host name or a public
 * IPv4 address, no credentials or fragment in it. `loopback` (FEED_GENERATOR_LOOPBACK, for local
 * development and the tests) also allows `http://127.0.0.1:<port>`. Checked at PUT and again at
 * each call, where the name's addresses are checked too (generator-call.ts); a redirect is never
 * followed, so the host named here is the host called.
 */
export function generatorUrlProblem(raw: string, loopback: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'a URL';
  }
  if (url.username !== '' || url.password !== '') return 'a URL without credentials';
  if (url.hash !== '') return 'a URL without a fragment';
  if (loopback && url.hostname === '127.0.0.1' && (url.protocol === 'http:' || url.protocol === 'https:')) return undefined;
  if (url.protocol !== 'https:') return 'an https URL';
  const host = url.hostname.toLowerCase().replace(/\.+$/, ''); // `localhost.` is localhost
  if (host.startsWith('[')) return 'a host name or a public IPv4 address (no IPv6 literal)';
  if (host === '' || host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local')) return 'a public host';
  if (isIP(host) === 4 && isPrivateV4(host)) return 'a public host (not a private, loopback or link-local address)';
  return undefined;
}

/** The breaker as stored on the definition: failures in a row, and until when (epoch ms) it is open. */
export interface BreakerState {
  readonly failures: number;
  readonly openUntil: number;
}

export const CLOSED: BreakerState = { failures: 0, openUntil: 0 };

/**
 * What a call may do now: `closed`, call; `open`, answer 503 without calling; `trial`, the wait is
 * over — one call may claim the trial (a conditional write moves `openUntil` on) and go, the rest
 * still answer 503.
 */
export function gateOf(s: BreakerState, nowMs: number): 'closed' | 'open' | 'trial' {
  if (s.openUntil > nowMs) return 'open';
  return s.openUntil > 0 ? 'trial' : 'closed';
}

/** Whether a failure opens the breaker: the BREAKER_FAILURES-th in a row, or a trial's. */
export const opensOn = (failuresInARow: number, trial: boolean): boolean => trial || failuresInARow >= BREAKER_FAILURES;
