/**
 * A page of a generator feed (model/feed-generator.ts): the generator's skeleton for `limit` and
 * the cursor, hydrated as a ranked page is (hydrate.ts). What tickfeed does with an untrusted
 * answer: cuts it to `limit`, drops ids that name nothing the reader may see (and repeats), ends
 * the reading on an echoed cursor, an empty page or MAX_GENERATOR_PAGES, answers a failure (a
 * timeout, a non-2xx, junk, too large, a URL no longer allowed) as a 502 and counts it toward the
 * breaker, which, open, answers 503 without calling. A non-personalized answer is kept
 * SKELETON_CACHE_SECONDS for the same page of the same definition; a personalized call carries a
 * token naming the reader. Cursors are signed for the reader and the definition.
 */
import { createHash } from 'node:crypto';
import { setting } from '../../../lib/defs/config.js';
import { BadGatewayError, invalidCursor, UnavailableError } from '../../model/domain-errors.js';
import {
  BREAKER_OPEN_MS,
  type CursorScope,
  decodeGeneratorCursor,
  gateOf,
  nextGeneratorCursor,
  opensOn,
  SKELETON_CACHE_SECONDS,
} from '../../model/feed-generator.js';
import { logger } from '../../platform/logger.js';
import { addGeneratorFailure, getCachedSkeleton, moveBreaker, openBreaker, putCachedSkeleton, type StoredDefinition } from '../../stores/ranked-feed-store.js';
import { hiddenAuthorsOf } from '../tags/hidden.js';
import { fetchSkeleton, type Generator, GeneratorFailure, itemOf, type Skeleton } from './generator-call.js';
import { readerToken } from './generator-token.js';
import { visibleActivities } from './hydrate.js';
import type { RankedItem, RankedPage } from './ranked-page.js';

interface PageAsk {
  readonly limit: number;
  readonly cursor?: string;
}

const digestOf = (d: StoredDefinition, ask: PageAsk) =>
  createHash('sha256')
    .update(`${d.updatedAt}\n${ask.limit}\n${ask.cursor ?? ''}`)
    .digest('base64url')
    .slice(0, 22);

const breakerOpen = (until: number, now: number) =>
  new UnavailableError("This feed's generator failed repeatedly: tickfeed is not calling it for now.", Math.max(1, (until - now) / 1000));

/** A page's skeleton as cached: cut to `limit` (so bounded), a malformed entry as null. */
const cachedForm = (s: Skeleton, limit: number) => JSON.stringify({ items: s.items.slice(0, limit).map((i) => i ?? null), cursor: s.cursor });

function fromCache(text: string): Skeleton {
  const { items, cursor } = JSON.parse(text) as { items: unknown[]; cursor?: string };
  return { items: items.map((i) => (i === null ? undefined : itemOf(i))), ...(cursor !== undefined && { cursor }) };
}

/** The generator's skeleton (from the cache, when not personalized and fresh), the breaker kept. */
async function skeletonOf(d: StoredDefinition, gen: Generator, reader: string, ask: PageAsk): Promise<Skeleton> {
  const now = Date.now();
  const breaker = d.breaker;
  const gate = gateOf(breaker, now);
  if (gate === 'open') throw breakerOpen(breaker.openUntil, now);
  const digest = digestOf(d, ask);
  if (!gen.personalized) {
    const cached = await getCachedSkeleton(d.feedId, digest, Math.floor(now / 1000));
    if (cached !== undefined) return fromCache(cached);
  }
  let openUntil = breaker.openUntil; // what a success expects to find when it closes the breaker
  if (gate === 'trial') {
    // One call tries the generator again; the others keep answering 503 for as long as it may take.
    const trialUntil = now + gen.timeoutMs + 1000;
    if (!(await moveBreaker(d.feedId, d.updatedAt, breaker.openUntil, trialUntil))) throw breakerOpen(trialUntil, now);
    openUntil = trialUntil;
  }
  const token = gen.personalized && d.generatorSecret !== undefined ? await readerToken(d.generatorSecret, d.feedId, reader, now) : undefined;
  let skeleton: Skeleton;
  try {
    skeleton = await fetchSkeleton(gen, { ...ask, ...(token !== undefined && { token }) }, setting('FEED_GENERATOR_LOOPBACK'));
  } catch (e) {
    if (!(e instanceof GeneratorFailure)) throw e;
    logger.warn('feed generator failed', { feedId: d.feedId, kind: e.kind });
    const failures = await addGeneratorFailure(d.feedId, d.updatedAt);
    if (failures !== undefined && opensOn(failures, gate === 'trial')) await openBreaker(d.feedId, d.updatedAt, Date.now() + BREAKER_OPEN_MS);
    throw new BadGatewayError(e.message, { cause: e });
  }
  await Promise.all([
    breaker.failures > 0 || openUntil > 0 ? moveBreaker(d.feedId, d.updatedAt, openUntil, 0) : undefined,
    gen.personalized
      ? undefined
      : putCachedSkeleton(d.feedId, digest, cachedForm(skeleton, ask.limit), Math.floor(now / 1000) + SKELETON_CACHE_SECONDS).catch((e: unknown) => {
          logger.warn('could not cache a feed generator answer', { feedId: d.feedId, error: e as Error }); // the page is served all the same
        }),
  ]);
  return skeleton;
}

export async function generatorPage(d: StoredDefinition, gen: Generator, reader: string, limit: number, cursor: string | undefined): Promise<RankedPage> {
  // Every generator definition has its secret (its PUT made it); cursors are signed with it.
  const scope: CursorScope = { secret: d.generatorSecret ?? '', reader };
  const sent: { pages: number; cursor?: string } | undefined = cursor === undefined ? { pages: 0 } : decodeGeneratorCursor(scope, cursor);
  if (sent === undefined || d.generatorSecret === undefined) throw invalidCursor();
  const ask = { limit, ...(sent.cursor !== undefined && { cursor: sent.cursor }) };
  const [skeleton, hidden] = await Promise.all([skeletonOf(d, gen, reader, ask), hiddenAuthorsOf(reader)]);
  const slice = skeleton.items.slice(0, limit);
  const ids = slice.map((item, i) => (item === undefined || slice.findIndex((o) => o?.activityId === item.activityId) < i ? undefined : item.activityId)); // repeats go
  const activities = await visibleActivities(ids, hidden);
  const items: RankedItem[] = [];
  activities.forEach((a, i) => {
    const reason = slice[i]?.reason;
    if (a !== undefined) items.push({ ...a, ...(reason !== undefined && { reason }) });
  });
  const answered = { items: skeleton.items.length, ...(skeleton.cursor !== undefined && { cursor: skeleton.cursor }) };
  return { items, filtered: slice.length - items.length, next: nextGeneratorCursor(scope, sent, answered) };
}
