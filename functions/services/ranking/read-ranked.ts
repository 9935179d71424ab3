/**
 * Reading a ranked feed (GET /feeds/{feedId}/activities). The first page reads the candidates
 * once (candidates.ts), with the reader's marks and controls in parallel, and — only for the
 * variables the expression reads — the candidates' counters and the reader's follow edges (one
 * BatchGet each); ranks them (rank.ts); keeps the ranked ids as a snapshot (an item that expires
 * after SNAPSHOT_TTL_SECONDS) when more than a page remains; and answers its first `limit`.
 * A later page reads the snapshot (with the reader's controls, in parallel) and hydrates its
 * slice: it never re-ranks, so scores moving meanwhile cannot repeat or skip a post.
 *
 * Every page, the first included, hydrates its slice the same way: one BatchGet of the originals
 * (their current version), leaving out deleted posts and the posts of authors the reader muted or
 * blocked or who blocked them — and never reading more to refill: `filtered` says how many left.
 */
import { randomBytes } from 'node:crypto';
import { invalidCursor, ValidationError } from '../../model/domain-errors.js';
import { followEdgeKey, parseEdge } from '../../model/follow-edge.js';
import { decodeRankedCursor, encodeRankedCursor, SNAPSHOT_TTL_SECONDS } from '../../model/ranked-feed.js';
import { activityOfCounterItem, COMMENT_KIND, countsOf } from '../../model/reaction.js';
import { ticksOfRangeKey } from '../../model/range-key.js';
import { nowTicks } from '../../platform/clock.js';
import { readGraphKeys } from '../../stores/follow-store.js';
import { getReaderMarks, getSnapshot, putSnapshot, type Snapshot } from '../../stores/ranked-feed-store.js';
import { getCounters } from '../../stores/social-store.js';
import { enriched } from '../reactions.js';
import { hiddenAuthorsOf } from '../tags/hidden.js';
import { readCandidates, type SourceSpec } from './candidates.js';
import { readableDefinition, type Requester } from './definitions.js';
import { checkExpression } from './expression-check.js';
import { generatorPage } from './generator-feed.js';
import type { Generator } from './generator-call.js';
import { visibleActivities } from './hydrate.js';
import type { RankedItem, RankedPage } from './ranked-page.js';
import { type Candidate, type Heuristics, rankCandidates } from './rank.js';

export interface RankedRequest {
  readonly limit: number;
  readonly cursor?: string;
  readonly explain: boolean;
  /** `reactions`: each item with its counts and the reader's own reactions (as the feeds' `enrich`). */
  readonly enrich?: 'reactions';
}

/** The stored definition's parts a ranking uses (validated by the PUT's schema); a generator feed has `generator` instead. */
interface Definition {
  readonly generator?: Generator;
  readonly sources: readonly SourceSpec[];
  readonly expression: string;
  readonly attributeDefaults: Record<string, number>;
  readonly heuristics: Heuristics;
}

const COUNTED = /^(reactions(\..*)?|comments|popularity)$/;

export async function readRankedFeed(who: Requester, feedId: string, req: RankedRequest): Promise<RankedPage> {
  return enriched(who.userId, await pageOf(who, feedId, req), req.enrich);
}

/** A ranking's later page reads its snapshot alone; any other page reads the definition first. */
async function pageOf(who: Requester, feedId: string, req: RankedRequest): Promise<RankedPage> {
  const ranking = req.cursor === undefined ? undefined : decodeRankedCursor(req.cursor);
  if (ranking !== undefined) return laterPage(who.userId, feedId, req, ranking);
  const stored = await readableDefinition(feedId, who);
  const def = JSON.parse(stored.body) as Definition;
  if (def.generator !== undefined) return generatorPage(stored, def.generator, who.userId, req.limit, req.cursor);
  if (req.cursor !== undefined) throw invalidCursor();
  return firstPage(who.userId, feedId, def, req);
}

async function firstPage(reader: string, feedId: string, def: Definition, req: RankedRequest): Promise<RankedPage> {
  const expr = checkExpression(def.expression, def.attributeDefaults);
  const now = nowTicks();
  const [activities, marks, hidden] = await Promise.all([readCandidates(reader, def.sources, now), getReaderMarks(reader), hiddenAuthorsOf(reader)]);
  const visible = activities.filter((a) => !hidden.has(a.actor));
  const authors = [...new Set(visible.map((a) => a.actor))];
  const [counters, edges] = await Promise.all([
    expr.variables.some((v) => COUNTED.test(v)) ? getCounters(visible.map((a) => a.id)) : [],
    expr.variables.includes('followsAuthor') ? readGraphKeys(authors.map((a) => followEdgeKey(reader, a))) : [],
  ]);
  const countsById = new Map(counters.map((c) => [activityOfCounterItem(c), countsOf(c)]));
  const follows = new Set(edges.filter((e) => parseEdge(e)?.state === 'active').map((e) => String(e.sk)));
  const candidates: Candidate[] = visible.map((a) => {
    const { [COMMENT_KIND]: comments = 0, ...reactions } = countsById.get(a.id) ?? {};
    return { id: a.id, author: a.actor, ticks: ticksOfRangeKey(BigInt(a.rangeKey)), reactions, comments, attributes: a.attributes };
  });
  const ctx = { now, seen: new Set(marks.seen), weights: marks.weights, follows, attributeDefaults: def.attributeDefaults };
  const { ranked } = rankCandidates(candidates, expr, ctx, def.heuristics);

  const snapshot: Snapshot = {
    reader,
    feedId,
    ids: ranked.map((r) => r.id),
    scores: ranked.map((r) => r.score),
    ...(req.explain && { explain: ranked.map((r) => r.variables) }),
    expiresAt: Math.floor(Date.now() / 1000) + SNAPSHOT_TTL_SECONDS,
  };
  let next: string | null = null;
  if (ranked.length > req.limit) {
    const snapshotId = randomBytes(16).toString('base64url');
    await putSnapshot(snapshotId, snapshot);
    next = encodeRankedCursor(snapshotId, req.limit);
  }
  // The page shows what the ranking placed first, hydrated as a later page is (with `hidden` as read).
  return { ...(await hydrate(snapshot, 0, req, hidden)), next };
}

async function laterPage(reader: string, feedId: string, req: RankedRequest, at: { snapshotId: string; position: number }): Promise<RankedPage> {
  const [snapshot, hidden] = await Promise.all([getSnapshot(at.snapshotId), hiddenAuthorsOf(reader)]);
  if (snapshot !== undefined && (snapshot.reader !== reader || snapshot.feedId !== feedId)) throw invalidCursor(); // another reader's or feed's
  if (snapshot === undefined || snapshot.expiresAt <= Math.floor(Date.now() / 1000)) {
    throw new ValidationError(`This ranking expired (a ranking is kept ${SNAPSHOT_TTL_SECONDS / 60} minutes): read the first page again, without a cursor.`, [
      { field: 'query.cursor', message: 'expired: start again from the first page' },
    ]);
  }
  if (at.position > snapshot.ids.length) throw invalidCursor();
  const page = await hydrate(snapshot, at.position, req, hidden);
  const end = at.position + req.limit;
  return { ...page, next: end < snapshot.ids.length ? encodeRankedCursor(at.snapshotId, end) : null };
}

/** The snapshot's slice from `position`, as the reader may see it now. */
async function hydrate(snapshot: Snapshot, position: number, req: RankedRequest, hidden: ReadonlySet<string>): Promise<Omit<RankedPage, 'next'>> {
  const ids = snapshot.ids.slice(position, position + req.limit);
  const activities = await visibleActivities(ids, hidden);
  const items: RankedItem[] = [];
  activities.forEach((a, i) => {
    if (a === undefined) return;
    const variables = req.explain ? snapshot.explain?.[position + i] : undefined;
    items.push({ ...a, score: snapshot.scores[position + i]!, ...(variables && { variables }) });
  });
  return { items, filtered: ids.length - items.length };
}
