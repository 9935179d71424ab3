/**
 * A page of a generator feed (model/feed-generator.ts): the generator's skeleton for `limit` and
 * the cursor, hydrated as a ranked page is (hydrate.ts). What tickfeed does with an untrusted
 * answer: cuts it to `limit`, drops ids that name nothing the reader may see (and repeats), ends
 * the reading on an echoed cursor, an empty page or MAX_GENERATOR_PAGES, answers a failure (a
 * timeout, a non-2xx, junk, too large) as a 502 and counts it toward the breaker, which, open,
 * answers 503 without calling. A non-personalized answer is kept SKELETON_CACHE_SECONDS for the
 * same page of the same definition; a personalized call carries a token naming the reader.
 */
import { createHash } from 'node:crypto';
import { BadGatewayError, invalidCursor, UnavailableError } from '../../model/domain-errors.js';
import { afterFailure, CLOSED, decodeGeneratorCursor, isOpen, nextGeneratorCursor, SKELETON_CACHE_SECONDS } from '../../model/feed-generator.js';
import { logger } from '../../platform/logger.js';
import { getCachedSkeleton, putBreaker, putCachedSkeleton, type StoredDefinition } from '../../stores/ranked-feed-store.js';
import { hiddenAuthorsOf } from '../tags/hidden.js';
import { fetchSkeleton, type Generator, GeneratorFailure, type Skeleton } from './generator-call.js';
import { readerToken } from './generator-token.js';
import { visibleActivities } from './hydrate.js';
import type { RankedItem, RankedPage } from './ranked-page.js';

interface PageAsk {
  readonly limit: number;
  readonly cursor?: string;
}

const digestOf = (d: StoredDefinition, limit: number, cursor: string | undefined) =>
  createHash('sha256')
    .update(`${d.updatedAt}\n${limit}\n${cursor ?? ''}`)
    .digest('base64url')
    .slice(0, 22);

/** The generator's skeleton (from the cache, when not personalized and fresh), the breaker kept. */
async function skeletonOf(d: StoredDefinition, gen: Generator, reader: string, ask: PageAsk): Promise<Skeleton> {
  const now = Date.now();
  const breaker = d.breaker ?? CLOSED;
  if (isOpen(breaker, now)) {
    throw new UnavailableError("This feed's generator failed repeatedly: tickfeed is not calling it for now.", (breaker.openUntil - now) / 1000);
  }
  const digest = digestOf(d, ask.limit, ask.cursor);
  if (!gen.personalized) {
    const cached = await getCachedSkeleton(d.feedId, digest, Math.floor(now / 1000));
    if (cached !== undefined) return JSON.parse(cached, (_, v: unknown) => (v === null ? undefined : v)) as Skeleton;
  }
  const token = gen.personalized && d.generatorSecret !== undefined ? await readerToken(d.generatorSecret, d.feedId, reader, now) : undefined;
  let skeleton: Skeleton;
  try {
    skeleton = await fetchSkeleton(gen, { ...ask, ...(token !== undefined && { token }) });
  } catch (e) {
    if (!(e instanceof GeneratorFailure)) throw e;
    logger.warn('feed generator failed', { feedId: d.feedId, kind: e.kind });
    await putBreaker(d.feedId, d.updatedAt, afterFailure(breaker, now));
    throw new BadGatewayError(e.message, { cause: e });
  }
  await Promise.all([
    breaker.failures > 0 ? putBreaker(d.feedId, d.updatedAt, CLOSED) : undefined,
    gen.personalized ? undefined : putCachedSkeleton(d.feedId, digest, JSON.stringify(skeleton), Math.floor(now / 1000) + SKELETON_CACHE_SECONDS),
  ]);
  return skeleton;
}

export async function generatorPage(d: StoredDefinition, gen: Generator, reader: string, limit: number, cursor: string | undefined): Promise<RankedPage> {
  const sent: { pages: number; cursor?: string } | undefined = cursor === undefined ? { pages: 0 } : decodeGeneratorCursor(cursor);
  if (sent === undefined) throw invalidCursor();
  const [skeleton, hidden] = await Promise.all([
    skeletonOf(d, gen, reader, { limit, ...(sent.cursor !== undefined && { cursor: sent.cursor }) }),
    hiddenAuthorsOf(reader),
  ]);
  const slice = skeleton.items.slice(0, limit);
  const ids = slice.map((item, i) => (item === undefined || slice.findIndex((o) => o?.activityId === item.activityId) < i ? undefined : item.activityId)); // repeats go
  const activities = await visibleActivities(ids, hidden);
  const items: RankedItem[] = [];
  activities.forEach((a, i) => {
    const reason = slice[i]?.reason;
    if (a !== undefined) items.push({ ...a, ...(reason !== undefined && { reason }) });
  });
  return {
    items,
    filtered: slice.length - items.length,
    next: nextGeneratorCursor(sent, { items: skeleton.items.length, ...(skeleton.cursor !== undefined && { cursor: skeleton.cursor }) }),
  };
}
