/**
 * The reference model of every home feed (issue 40): given the history of user commands, what each
 * reader's home feed must show — which posts, at which version, newest first — and which of them
 * must be stored as copies. Written from the documented rules (docs/lanes.md "Who gets a copy",
 * docs/api.md "Follow graph and fan-out", "Tags", "Mute and block", DESIGN round 5 "Roads into a
 * home feed"), not from functions/: it knows nothing of jobs, pages, bounds or keys. Pure and
 * synchronous; the simulation test (home-feed.test.ts) applies each command here and on the real
 * services, and compares.
 *
 * Roads in: the reader's own post; a followed author (push, or pulled and merged at read time);
 * a followed tag (push: posts that joined the tag after the follow; pull: every post with the tag,
 * merged at read time). A returning reader's write-back is no road of its own: a reader who went
 * idle must see what a reader who never left sees, so idleness is not in the model at all.
 * Roads out: unfollow, tag unfollow, mute, block (either direction), delete, an edit dropping a tag,
 * erase. Retention is off in the test's stack (FEED_MAX_ITEMS off), so it never bites.
 * A post shows while any road brings it and no mute or block stands against it.
 *
 * Decisions where the docs are silent or ambiguous (listed in the report too):
 *  D1 A push tag follow brings a post whose tag was joined after the follow — by the post's creation
 *     or by an edit adding the tag ("its new posts come into the home feed"; an edit that adds a tag
 *     runs the tag's fan-out). A post that joined the tag before the follow MAY show (optional): its
 *     tag fan-out may run after the follow and copy it (the tag cleanup's FANOUT_SLACK_MS admits
 *     such "fan-outs of slightly older posts"); it must show on no other account, and is never
 *     required.
 *  D2 A pull tag follow brings every live post with the tag, earlier ones too ("a hot tag's, merged at
 *     read time, shows its earlier ones too").
 *  D3 A tag follow is push while the tag has fewer than `pullThreshold` followers when it is made
 *     ("the first FANOUT_PULL_THRESHOLD followers of a tag get copies"), pull otherwise; its mode
 *     never changes afterwards (the docs name no promotion).
 *  D4 An author is pulled once their followers reach `pullThreshold` and goes back to push below
 *     max(1, floor(0.9 × threshold)) (hysteresis, docs/api.md "Hybrid fan-out"). Muted follows count
 *     (a mute keeps the follow and both counts).
 *  D5 Unmute and unblock restore what the roads bring: the rule "shows while any road brings it and no
 *     mute or block stands against it" has no memory. (Unblock does not restore follows.)
 *  D6 Follow is refused (403) while a block stands either way (docs/api.md "Mute and block": the
 *     blocked user cannot follow the blocker, and the blocker must unblock to follow).
 *     A mute of a followed user keeps the follow. Nobody mutes, blocks or follows themselves (the generator never asks).
 *  D7 Erase ends the user's follows both ways and their tag follows, and takes all their posts out of
 *     every feed. An erased user issues no more commands and is no target of any.
 *  D8 Stored copies: a shown post brought by a push road (own post, a followed author not pulled, a
 *     push tag follow) must be stored, at its latest version; a post not shown must not be; a shown
 *     post brought only by pull roads may be stored or not (copies made before a pull stay, invisible:
 *     the page removes duplicates).
 */

export type User = string;
export type Tag = string;

export interface Post {
  readonly n: number; // the order of posting: newer posts have larger n (a page is newest first)
  readonly author: User;
  tags: Set<Tag>;
  /** When each current tag was joined (the logical time of the post, or of the edit adding it). */
  joinedAt: Map<Tag, number>;
  version: number;
  deleted: boolean;
}

export interface TagFollow {
  readonly mode: 'push' | 'pull';
  readonly at: number;
}

export interface HomeFeedModel {
  readonly pullThreshold: number;
  time: number;
  posts: Post[];
  erased: Set<User>;
  /** reader → followed authors */
  follows: Map<User, Set<User>>;
  /** reader → tag → follow */
  tagFollows: Map<User, Map<Tag, TagFollow>>;
  /** `muter>muted` */
  mutes: Set<string>;
  /** `blocker>blocked` */
  blocks: Set<string>;
  pulled: Set<User>;
}

export const emptyModel = (pullThreshold: number): HomeFeedModel => ({
  pullThreshold,
  time: 0,
  posts: [],
  erased: new Set(),
  follows: new Map(),
  tagFollows: new Map(),
  mutes: new Set(),
  blocks: new Set(),
  pulled: new Set(),
});

const edge = (a: User, b: User) => `${a}>${b}`;
const followsOf = (m: HomeFeedModel, r: User) => m.follows.get(r) ?? new Set<User>();
const tagFollowsOf = (m: HomeFeedModel, r: User) => m.tagFollows.get(r) ?? new Map<Tag, TagFollow>();
const followerCount = (m: HomeFeedModel, a: User) => [...m.follows.values()].filter((s) => s.has(a)).length;
const tick = (m: HomeFeedModel) => ++m.time;

/** D4: the author's pull state after a change of their followers. */
function settlePulled(m: HomeFeedModel, a: User): void {
  const n = followerCount(m, a);
  const unpullBelow = Math.max(1, Math.floor(m.pullThreshold * 0.9));
  if (!m.pulled.has(a) && n >= m.pullThreshold) m.pulled.add(a);
  else if (m.pulled.has(a) && n < unpullBelow) m.pulled.delete(a);
}

export const blockedEitherWay = (m: HomeFeedModel, a: User, b: User) => m.blocks.has(edge(a, b)) || m.blocks.has(edge(b, a));
export const followsTag = (m: HomeFeedModel, r: User, t: Tag) => tagFollowsOf(m, r).has(t);

// ---- Commands (each mirrors one user request that succeeded) ----

export function post(m: HomeFeedModel, author: User, tags: readonly Tag[]): Post {
  const at = tick(m);
  const p: Post = { n: m.posts.length, author, tags: new Set(tags), joinedAt: new Map(tags.map((t) => [t, at])), version: 1, deleted: false };
  m.posts.push(p);
  return p;
}

/** An edit: the post's tags become `tags` (D1: a tag it gains is joined now); `version` is what the server answered. */
export function edit(m: HomeFeedModel, p: Post, tags: readonly Tag[], version: number): void {
  const at = tick(m);
  for (const t of tags) if (!p.tags.has(t)) p.joinedAt.set(t, at);
  for (const t of p.tags) if (!tags.includes(t)) p.joinedAt.delete(t);
  p.tags = new Set(tags);
  p.version = version;
}

export function remove(m: HomeFeedModel, p: Post): void {
  tick(m);
  p.deleted = true;
}

export function follow(m: HomeFeedModel, r: User, a: User): 'followed' | 'refused' {
  tick(m);
  if (m.blocks.has(edge(a, r)) || m.blocks.has(edge(r, a))) return 'refused'; // D6: a block either way
  m.follows.set(r, new Set([...followsOf(m, r), a]));
  settlePulled(m, a);
  return 'followed';
}

export function unfollow(m: HomeFeedModel, r: User, a: User): void {
  tick(m);
  followsOf(m, r).delete(a);
  settlePulled(m, a);
}

export function followTag(m: HomeFeedModel, r: User, t: Tag): void {
  const at = tick(m);
  if (followsTag(m, r, t)) return; // idempotent: the first follow's time and mode stand
  const followers = [...m.tagFollows.values()].filter((f) => f.has(t)).length;
  m.tagFollows.set(r, new Map([...tagFollowsOf(m, r), [t, { mode: followers < m.pullThreshold ? 'push' : 'pull', at }]])); // D3
}

export function unfollowTag(m: HomeFeedModel, r: User, t: Tag): void {
  tick(m);
  tagFollowsOf(m, r).delete(t);
}

export function mute(m: HomeFeedModel, r: User, a: User, on: boolean): void {
  tick(m);
  if (on) m.mutes.add(edge(r, a));
  else m.mutes.delete(edge(r, a));
}

export function block(m: HomeFeedModel, r: User, a: User, on: boolean): void {
  tick(m);
  if (!on) {
    m.blocks.delete(edge(r, a)); // D5: follows stay ended
    return;
  }
  m.blocks.add(edge(r, a));
  followsOf(m, r).delete(a);
  followsOf(m, a).delete(r);
  settlePulled(m, a);
  settlePulled(m, r);
}

export function erase(m: HomeFeedModel, u: User): void {
  tick(m);
  m.erased.add(u);
  for (const p of m.posts) if (p.author === u) p.deleted = true;
  const followed = [...followsOf(m, u)];
  m.follows.delete(u);
  m.tagFollows.delete(u);
  for (const s of m.follows.values()) s.delete(u);
  for (const a of followed) settlePulled(m, a);
}

// ---- What a feed must show ----

export type Road = 'own' | 'author' | 'pulled-author' | `push-tag:${Tag}` | `pull-tag:${Tag}` | `early-tag:${Tag}`;

/** The roads that bring `p` to `r` now (mutes and blocks aside). */
export function roads(m: HomeFeedModel, r: User, p: Post): Road[] {
  if (p.deleted || m.erased.has(p.author)) return [];
  const out: Road[] = [];
  if (p.author === r) out.push('own');
  if (followsOf(m, r).has(p.author)) out.push(m.pulled.has(p.author) ? 'pulled-author' : 'author');
  for (const [t, f] of tagFollowsOf(m, r)) {
    if (!p.tags.has(t)) continue;
    if (f.mode === 'pull')
      out.push(`pull-tag:${t}`); // D2
    else out.push(p.joinedAt.get(t)! > f.at ? `push-tag:${t}` : `early-tag:${t}`); // D1
  }
  return out;
}

/** A mute or block stands between reader and author (never for the reader's own posts). */
export const hidden = (m: HomeFeedModel, r: User, author: User) => author !== r && (m.mutes.has(edge(r, author)) || blockedEitherWay(m, r, author));

const isPush = (road: Road) => road === 'own' || road === 'author' || road.startsWith('push-tag:');

export interface Expected {
  readonly post: Post;
  /** D8: whether a stored copy must exist (else it may, if the post shows at all). */
  readonly mustStore: boolean;
  /** D1: only an early tag road brings it: it may show or not. */
  readonly optional: boolean;
}

/** What `r`'s home feed must show, newest first. */
export function expectedFeed(m: HomeFeedModel, r: User): Expected[] {
  return m.posts
    .filter((p) => !hidden(m, r, p.author))
    .map((p) => ({ post: p, roads: roads(m, r, p) }))
    .filter((e) => e.roads.length > 0)
    .sort((a, b) => b.post.n - a.post.n)
    .map((e) => ({ post: e.post, mustStore: e.roads.some(isPush), optional: e.roads.every((r) => r.startsWith('early-tag:')) }));
}
