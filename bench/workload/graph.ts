/**
 * The workload's social graph and posts, generated from a seed (pure). Follower counts follow a
 * power law by popularity rank, `min(a third of the users, round(C · rank^-alpha))`, C solved for
 * the wanted total: with the default shape seven users are followed by a third of everyone, rank
 * 100 by ~70, the last by ~18. Followers are drawn uniformly, so everyone follows about the mean
 * (40): celebrities and friends alike. Posts: about `postsPerUser` each (±50 %) with 0–5 mentions
 * of followees, shuffled so that any prefix of the list is a fair sample of authors.
 */
import { type Random, seededRandom } from './random.js';

export interface GraphShape {
  readonly users: number;
  readonly follows: number;
  /** Steepness of the popularity power law. */
  readonly alpha: number;
  /** Most followers any user has, as a fraction of all users (the "third of everyone"). */
  readonly hotFraction: number;
  readonly postsPerUser: number;
  readonly maxMentions: number;
  readonly seed: number;
}

export const defaultShape: GraphShape = { users: 1000, follows: 40_000, alpha: 0.6, hotFraction: 1 / 3, postsPerUser: 10, maxMentions: 5, seed: 20261123 };

/** A follow edge by user index. */
export interface Edge {
  readonly follower: number;
  readonly followee: number;
}

export interface PlannedPost {
  /** Position in the post list (also makes its content unique). */
  readonly seq: number;
  readonly author: number;
  /** Distinct users mentioned, never the author. */
  readonly mentions: readonly number[];
}

export interface Workload {
  readonly shape: GraphShape;
  readonly edges: readonly Edge[];
  /** followersOf[u] = the users following u. */
  readonly followersOf: readonly (readonly number[])[];
  /** followingOf[u] = the users u follows. */
  readonly followingOf: readonly (readonly number[])[];
  readonly posts: readonly PlannedPost[];
}

/** Follower counts by popularity rank (index 0 = most followed), summing to about `follows`. */
export function followerCounts(shape: Pick<GraphShape, 'users' | 'follows' | 'alpha' | 'hotFraction'>): number[] {
  const cap = Math.floor(shape.users * shape.hotFraction);
  const counts = (c: number) => Array.from({ length: shape.users }, (_, r) => Math.max(1, Math.min(cap, Math.round(c * (r + 1) ** -shape.alpha))));
  const total = (c: number) => counts(c).reduce((a, b) => a + b, 0);
  if (total(shape.users * cap) < shape.follows) throw new Error(`${shape.follows} follows do not fit ${shape.users} users capped at ${cap} followers`);
  // The sum grows with C: bisect for the C that gives the wanted total.
  let lo = 0;
  let hi = shape.users * cap;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (total(mid) < shape.follows) lo = mid;
    else hi = mid;
  }
  return counts(hi);
}

export function generateWorkload(shape: GraphShape = defaultShape): Workload {
  const rng = seededRandom(shape.seed);
  const everyone = Array.from({ length: shape.users }, (_, i) => i);
  // Which user has which popularity rank.
  const byRank = rng.shuffle(everyone);
  const counts = followerCounts(shape);
  const followersOf: number[][] = everyone.map(() => []);
  const followingOf: number[][] = everyone.map(() => []);
  const edges: Edge[] = [];
  byRank.forEach((followee, rank) => {
    const others = everyone.filter((u) => u !== followee);
    for (const follower of rng.sample(others, counts[rank]!)) {
      followersOf[followee]!.push(follower);
      followingOf[follower]!.push(followee);
      edges.push({ follower, followee });
    }
  });
  return { shape, edges: rng.shuffle(edges), followersOf, followingOf, posts: planPosts(shape, followingOf, rng) };
}

function planPosts(shape: GraphShape, followingOf: readonly (readonly number[])[], rng: Random): PlannedPost[] {
  const low = Math.max(1, Math.round(shape.postsPerUser / 2));
  const high = Math.round(shape.postsPerUser * 1.5);
  const drafts: { author: number; mentions: number[] }[] = [];
  for (let author = 0; author < shape.users; author++) {
    const others =
      followingOf[author]!.length >= shape.maxMentions ? followingOf[author]! : Array.from({ length: shape.users }, (_, i) => i).filter((u) => u !== author);
    for (let n = rng.int(low, high); n > 0; n--) drafts.push({ author, mentions: rng.sample(others, rng.int(0, shape.maxMentions)) });
  }
  return rng.shuffle(drafts).map((d, seq) => ({ seq, ...d }));
}

/** The text of a planned post: a sentence, then its mentions as `@userId`. */
export function contentOf(post: PlannedPost, idOf: (user: number) => string): string {
  const mentions = post.mentions.map((m) => ` @${idOf(m)}`).join('');
  return `workload post ${post.seq}: what a day at the lab${mentions}`;
}
