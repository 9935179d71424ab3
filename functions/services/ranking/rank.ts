/**
 * Ranking candidates (pure, unit-tested): each candidate's variables, its expression score, the
 * reader's author weight, then the heuristics — drop what the reader marked seen, drop what
 * scores below the floor, and author diversity: walking down the ranking, each further post of
 * an author already placed has its score multiplied by `authorDiversity` once more (scores below
 * zero divided), so one prolific author cannot fill the top. Ties: newer first, then by id, so a
 * ranking of the same facts is always the same list.
 */
import { evaluateExpression } from './expression-evaluate.js';
import type { Expr } from './expression-parse.js';

export interface Candidate {
  readonly id: string;
  readonly author: string;
  /** Server ticks (ns) when it was posted. */
  readonly ticks: bigint;
  /** Reaction counts by kind (comments apart). */
  readonly reactions: Readonly<Record<string, number>>;
  readonly comments: number;
  readonly attributes: Readonly<Record<string, unknown>> | null;
}

export interface RankContext {
  readonly now: bigint;
  readonly seen: ReadonlySet<string>;
  readonly weights: Readonly<Record<string, number>>;
  readonly follows: ReadonlySet<string>;
  readonly attributeDefaults: Readonly<Record<string, number>>;
}

export interface Heuristics {
  /** Factor (0–1] per further post of an author already placed; 1 or absent: none. */
  readonly authorDiversity?: number;
  /** Leave out posts the reader marked seen. */
  readonly dropSeen?: boolean;
  /** Leave out posts scoring below this (after weights, before diversity). */
  readonly floor?: number;
}

export interface Ranked {
  readonly id: string;
  readonly author: string;
  readonly score: number;
  readonly variables: Readonly<Record<string, number>>;
}

const HOUR_TICKS = 3_600_000_000_000;

/** The variables `names` of one candidate (a checked expression reads no other). */
export function variablesOf(c: Candidate, ctx: RankContext, names: readonly string[]): Record<string, number> {
  const reactions = Object.values(c.reactions).reduce((a, b) => a + b, 0);
  const out: Record<string, number> = {};
  for (const name of names) {
    if (name === 'age') out.age = Math.max(0, Number(ctx.now - c.ticks) / HOUR_TICKS);
    else if (name === 'reactions') out.reactions = reactions;
    else if (name === 'comments') out.comments = c.comments;
    else if (name === 'popularity') out.popularity = reactions + 2 * c.comments;
    else if (name === 'followsAuthor') out.followsAuthor = ctx.follows.has(c.author) ? 1 : 0;
    else if (name === 'seen') out.seen = ctx.seen.has(c.id) ? 1 : 0;
    else if (name === 'authorWeight') out.authorWeight = ctx.weights[c.author] ?? 1;
    else if (name.startsWith('reactions.')) out[name] = c.reactions[name.slice('reactions.'.length)] ?? 0;
    else if (name.startsWith('attributes.')) {
      const attr = name.slice('attributes.'.length);
      const v = c.attributes?.[attr];
      out[name] = typeof v === 'number' && Number.isFinite(v) ? v : ctx.attributeDefaults[attr]!;
    }
  }
  return out;
}

/** `s` scaled by a factor f > 0 so that f < 1 always lowers it, also below zero. */
const scaled = (s: number, f: number): number => (s >= 0 ? s * f : s / f);

const before = (a: { score: number; ticks: bigint; id: string }, b: { score: number; ticks: bigint; id: string }): boolean =>
  a.score !== b.score ? a.score > b.score : a.ticks !== b.ticks ? a.ticks > b.ticks : a.id < b.id;

/** Candidates in ranked order, and how many the heuristics left out. */
export function rankCandidates(
  candidates: readonly Candidate[],
  expr: { readonly tree: Expr; readonly variables: readonly string[] },
  ctx: RankContext,
  h: Heuristics,
): { ranked: Ranked[]; dropped: number } {
  const names = [...new Set([...expr.variables, 'age'])];
  type Scored = Ranked & { ticks: bigint };
  const scored: Scored[] = [];
  let dropped = 0;
  for (const c of candidates) {
    if (h.dropSeen && ctx.seen.has(c.id)) {
      dropped++;
      continue;
    }
    const variables = variablesOf(c, ctx, names);
    const score = scaled(evaluateExpression(expr.tree, variables), ctx.weights[c.author] ?? 1);
    if (h.floor !== undefined && score < h.floor) {
      dropped++;
      continue;
    }
    scored.push({ id: c.id, author: c.author, score, variables, ticks: c.ticks });
  }
  scored.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  const factor = h.authorDiversity ?? 1;
  if (factor >= 1) return { ranked: scored.map(({ ticks: _, ...r }) => r), dropped };

  // Per author, their posts in order; each step places the best head after its author's penalty.
  const queues = new Map<string, Scored[]>();
  for (const s of scored) (queues.get(s.author) ?? queues.set(s.author, []).get(s.author)!).push(s);
  const placed = new Map<string, number>();
  const ranked: Ranked[] = [];
  while (ranked.length < scored.length) {
    let best: Scored | undefined;
    for (const [author, q] of queues) {
      if (q.length === 0) continue;
      const head = q[0]!;
      const adjusted = { ...head, score: scaled(head.score, factor ** (placed.get(author) ?? 0)) };
      if (best === undefined || before(adjusted, best)) best = adjusted;
    }
    queues.get(best!.author)!.shift();
    placed.set(best!.author, (placed.get(best!.author) ?? 0) + 1);
    ranked.push({ id: best!.id, author: best!.author, score: best!.score, variables: best!.variables });
  }
  return { ranked, dropped };
}
