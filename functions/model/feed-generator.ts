/**
 * Feed generators (docs/ranked-feeds.md#feed-generators): a ranked feed whose definition names an
 * external service that answers a skeleton of activity ids, which tickfeed hydrates. The service
 * is untrusted, so everything here bounds it: which URLs may be called, how far its cursor may
 * lead, and when a failing one stops being called (the breaker). Pure: the clock is a parameter.
 */

/** A generator's answer is read up to this many bytes; a longer one is refused as a whole. */
export const MAX_SKELETON_BYTES = 256 * 1024;
/** A generator cursor longer than this is refused (ours wraps it, within the list cursor's 2,048). */
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

/** Our cursor of a generator feed: how many pages were served, and the generator's own cursor. */
export const encodeGeneratorCursor = (pages: number, cursor: string): string => Buffer.from(`${pages}.${cursor}`, 'utf8').toString('base64url');

export function decodeGeneratorCursor(cursor: string): { pages: number; cursor: string } | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (Buffer.from(text, 'utf8').toString('base64url') !== cursor) return undefined;
  const m = /^(\d{1,3})\.([\s\S]{1,1000})$/.exec(text);
  if (!m) return undefined;
  const pages = Number(m[1]);
  return pages >= 1 && pages < MAX_GENERATOR_PAGES ? { pages, cursor: m[2]! } : undefined;
}

/**
 * Where a reading goes next: nowhere when the generator gave no cursor, an empty page, the cursor
 * it was sent (a loop), or the last page allowed.
 */
export function nextGeneratorCursor(sent: { pages: number; cursor?: string }, answered: { cursor?: string; items: number }): string | null {
  const c = answered.cursor;
  if (c === undefined || c === '' || c === sent.cursor || answered.items === 0) return null;
  if (c.length > MAX_GENERATOR_CURSOR || sent.pages + 1 >= MAX_GENERATOR_PAGES) return null;
  return encodeGeneratorCursor(sent.pages + 1, c);
}

/** Addresses a Lambda must not be aimed at: private, loopback, link-local (the metadata service), shared, multicast and reserved. */
const PRIVATE_V4 = ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.168.0.0/16', '224.0.0.0/3'];

const v4 = (dotted: string) => dotted.split('.').reduce((n, part) => n * 256 + Number(part), 0);

function isPrivateV4(host: string): boolean {
  const n = v4(host);
  return PRIVATE_V4.some((cidr) => {
    const [base, bits] = cidr.split('/');
    const size = 2 ** (32 - Number(bits));
    return Math.floor(n / size) === Math.floor(v4(base!) / size);
  });
}

/**
 * Why tickfeed may not call this URL, or undefined when it may: HTTPS to a host name or a public
 * IPv4 address, no credentials or fragment in it. `loopback` (FEED_GENERATOR_LOOPBACK, for local
 * development and the tests) also allows `http://127.0.0.1:<port>`. A redirect is never followed
 * (the call refuses it), so the host named here is the host called.
 */
export function generatorUrlProblem(raw: string, loopback: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.username !== '' || url.password !== '') return 'a URL without credentials';
  if (url.hash !== '') return 'a URL without a fragment';
  if (loopback && url.hostname === '127.0.0.1' && (url.protocol === 'http:' || url.protocol === 'https:')) return undefined;
  if (url.protocol !== 'https:') return 'an https URL';
  const host = url.hostname.toLowerCase();
  if (host.startsWith('[')) return 'a host name or a public IPv4 address (no IPv6 literal)';
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) return 'a public host';
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) && isPrivateV4(host)) return 'a public host (not a private, loopback or link-local address)';
  return undefined;
}

/** The breaker as stored on the definition: failures in a row, and until when (epoch ms) it is open. */
export interface BreakerState {
  readonly failures: number;
  readonly openUntil: number;
}

export const CLOSED: BreakerState = { failures: 0, openUntil: 0 };

export const isOpen = (s: BreakerState, nowMs: number): boolean => s.openUntil > nowMs;

/**
 * The state after one more failure. It opens at BREAKER_FAILURES in a row; once it has been open,
 * the first call after (half-open) that fails opens it again at once.
 */
export function afterFailure(s: BreakerState, nowMs: number): BreakerState {
  const failures = s.failures + 1;
  return failures >= BREAKER_FAILURES ? { failures: BREAKER_FAILURES - 1, openUntil: nowMs + BREAKER_OPEN_MS } : { failures, openUntil: s.openUntil };
}
