/** Ranking candidates (services/ranking/rank.ts) and feedback marks (feedback.ts): pure. */
import { describe, expect, it } from 'vitest';
import { applyInteractions } from '../../functions/services/ranking/feedback.js';
import { checkExpression } from '../../functions/services/ranking/expression-check.js';
import { type Candidate, rankCandidates } from '../../functions/services/ranking/rank.js';

const HOUR = 3_600_000_000_000n;
const now = 1_000n * HOUR;
const post = (id: string, author: string, hoursAgo: number, likes = 0, comments = 0): Candidate => ({
  id,
  author,
  ticks: now - BigInt(hoursAgo) * HOUR,
  reactions: likes ? { like: likes } : {},
  comments,
  attributes: null,
});
const ctx = (over: Partial<Parameters<typeof rankCandidates>[2]> = {}) => ({
  now,
  seen: new Set<string>(),
  weights: {},
  follows: new Set<string>(),
  attributeDefaults: {},
  ...over,
});
const order = (r: ReturnType<typeof rankCandidates>) => r.ranked.map((x) => x.id);

describe('rankCandidates', () => {
  const posts = [post('a1', 'a', 1, 5), post('a2', 'a', 2, 4), post('a3', 'a', 3, 3), post('b1', 'b', 4, 1)];
  const pop = checkExpression('popularity');

  it('orders by score, ties newest first', () => {
    expect(order(rankCandidates(posts, pop, ctx(), {}))).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(order(rankCandidates(posts, checkExpression('1'), ctx(), {}))).toEqual(['a1', 'a2', 'a3', 'b1']);
  });

  it('author diversity lowers each further post of an author once more', () => {
    const r = rankCandidates(posts, pop, ctx(), { authorDiversity: 0.25 });
    // a1 5; then a2 4 × 0.25 = 1 vs b1 1: tie, newer a2 first; a3 3 × 0.0625.
    expect(order(r)).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(r.ranked.map((x) => x.score)).toEqual([5, 1, 1, 3 * 0.0625]);
  });

  it('drops seen posts where asked, and what scores below the floor', () => {
    const seen = new Set(['a1']);
    expect(rankCandidates(posts, pop, ctx({ seen }), { dropSeen: true })).toMatchObject({ dropped: 1 });
    expect(order(rankCandidates(posts, pop, ctx({ seen }), {}))).toContain('a1');
    expect(order(rankCandidates(posts, pop, ctx(), { floor: 3 }))).toEqual(['a1', 'a2', 'a3']);
  });

  it('weights an author: less lowers positive and negative scores alike', () => {
    expect(order(rankCandidates(posts, pop, ctx({ weights: { a: 0.1 } }), {}))).toEqual(['b1', 'a1', 'a2', 'a3']);
    const neg = rankCandidates([post('x', 'a', 1), post('y', 'b', 1)], checkExpression('-1'), ctx({ weights: { a: 0.5 } }), {});
    expect(neg.ranked.find((r) => r.id === 'x')!.score).toBe(-2);
  });

  it('offers each variable as documented', () => {
    const c: Candidate = { ...post('p', 'a', 6, 2, 3), reactions: { like: 2, wow: 1 }, attributes: { boost: 4, label: 'x' } };
    const expr = checkExpression(
      'age + reactions + reactions.wow + comments + popularity + followsAuthor + seen + authorWeight + attributes.boost + attributes.label',
      { boost: 0, label: 7 },
    );
    const [r] = rankCandidates(
      [c],
      expr,
      ctx({ follows: new Set(['a']), seen: new Set(['p']), weights: { a: 2 }, attributeDefaults: { boost: 0, label: 7 } }),
      {},
    ).ranked;
    expect(r!.variables).toEqual({
      age: 6,
      reactions: 3,
      'reactions.wow': 1,
      comments: 3,
      popularity: 9,
      followsAuthor: 1,
      seen: 1,
      authorWeight: 2,
      'attributes.boost': 4,
      'attributes.label': 7,
    });
  });
});

describe('applyInteractions', () => {
  it('keeps seen ids once, newest last, and bounds author weights', () => {
    const e = (activityId: string, event: 'seen' | 'less' | 'more') => ({ activityId, author: activityId.split(':')[0]!, event });
    let m = applyInteractions({ seen: [], weights: {}, v: 0 }, [e('a:1', 'seen'), e('b:1', 'seen'), e('a:1', 'seen')]);
    expect(m.seen).toEqual(['b:1', 'a:1']);
    m = applyInteractions(
      m,
      Array.from({ length: 6 }, () => e('a:1', 'less')),
    );
    expect(m.weights).toEqual({ a: 1 / 16 });
    m = applyInteractions(
      m,
      Array.from({ length: 4 }, () => e('a:1', 'more')),
    );
    expect(m.weights).toEqual({}); // back at 1: forgotten
  });
});
