/**
 * The facts the copy rule (model/copy-rule.ts) needs about stored copies, gathered for a batch of
 * them, and its answer: whether each copy may stay. Every remover of copies asks here (unfollow,
 * mute and block cleanups, tag unfollow, tag retract after an edit, a tag fan-out taking back, a
 * write-back's re-check), so no remover takes a copy another road still brings, and none keeps one
 * a mute or block hides.
 * Cost: one strongly consistent BatchGet of the readers' edges to the authors and their follows of
 * the posts' tags; one profile Query per distinct followed author (their `pulled` flag); and one
 * control-partition Query per distinct author or per distinct reader, whichever are fewer (a mute
 * or a block is mirrored in both partitions: model/user-controls.ts), strongly consistent too: a
 * stale read still showing a lifted mute would take a copy that nothing writes back.
 */
import { type CopyFacts, followBrings, holdsCopy, type TagMode } from '../model/copy-rule.js';
import { followEdgeKey, followerOfEdgePk, parseEdge } from '../model/follow-edge.js';
import { parseTagFollow, tagFollowKey, userOfTagFollowPk } from '../model/tag-items.js';
import { tagKeysOf } from '../model/tags.js';
import { getProfile, readGraphKeys } from '../stores/follow-store.js';
import { hiddenAuthorsOf, shieldedFrom } from './tags/hidden.js';

/** A reader's copy of a post by `actor` carrying `tags` (as stored: tagKeysOf reads them). */
export interface StoredCopy {
  readonly reader: string;
  readonly actor: string;
  readonly tags: unknown;
  /** The post is deleted (or gone): no copy of it may stay. */
  readonly deleted?: boolean;
}

/** A key's identity, for asking each key once. */
const keyId = (key: { pk: string; sk: string }) => `${key.pk}\n${key.sk}`;
const pairId = (reader: string, author: string) => `${reader}\n${author}`;

/**
 * The rule's facts for each of `copies`, read in one pass. `pulled`: the authors the caller knows
 * to be pulled (a reader's head lists the pulled authors they follow), instead of reading profiles.
 */
export async function copyFactsOf(copies: readonly StoredCopy[], opts: { pulled?: ReadonlySet<string> } = {}): Promise<CopyFacts[]> {
  const asked = copies.filter((c) => c.actor !== c.reader && !c.deleted);
  const keys = new Map<string, Record<string, unknown>>();
  for (const c of asked) {
    const edge = followEdgeKey(c.reader, c.actor);
    keys.set(keyId(edge), edge);
    for (const k of tagKeysOf(c.tags)) {
      const follow = tagFollowKey(c.reader, k);
      keys.set(keyId(follow), follow);
    }
  }
  const [found, hidden] = await Promise.all([keys.size ? readGraphKeys([...keys.values()]) : [], hiddenPairs(asked)]);
  const tagModes = new Map<string, Map<string, TagMode>>(); // reader → tag key → mode
  const follows = new Map<string, { active: boolean; muted: boolean }>(); // pair → follow
  for (const item of found) {
    const tagFollower = userOfTagFollowPk(String(item.pk));
    if (tagFollower !== undefined) {
      const follow = parseTagFollow(item);
      if (follow) tagModes.set(tagFollower, (tagModes.get(tagFollower) ?? new Map<string, TagMode>()).set(String(item.sk), follow.mode));
    } else {
      const edge = parseEdge(item)!;
      follows.set(pairId(followerOfEdgePk(String(item.pk)), String(item.sk)), { active: edge.state === 'active', muted: edge.muted });
    }
  }
  const followedAuthors = [...new Set(asked.filter((c) => followBrings(follows.get(pairId(c.reader, c.actor)))).map((c) => c.actor))];
  const pulled = new Set<string>(opts.pulled);
  if (!opts.pulled) await Promise.all(followedAuthors.map(async (a) => ((await getProfile(a, { consistent: true })).pulled ? pulled.add(a) : undefined)));
  const none = new Map<string, TagMode>();
  return copies.map((c) => ({
    reader: c.reader,
    post: { actor: c.actor, tags: tagKeysOf(c.tags), deleted: c.deleted },
    follow: follows.get(pairId(c.reader, c.actor)),
    authorPulled: pulled.has(c.actor),
    tagFollows: tagModes.get(c.reader) ?? none,
    hidden: hidden.has(pairId(c.reader, c.actor)),
  }));
}

/** For each of `copies`, whether it may stay (the copy rule's `stored`). */
export async function keptCopies(copies: readonly StoredCopy[], opts: { pulled?: ReadonlySet<string> } = {}): Promise<boolean[]> {
  return (await copyFactsOf(copies, opts)).map(holdsCopy);
}

/** The (reader, author) pairs of `copies` a mute or block stands between, from whichever side has fewer partitions to read. */
async function hiddenPairs(copies: readonly StoredCopy[]): Promise<Set<string>> {
  const readers = [...new Set(copies.map((c) => c.reader))];
  const authors = [...new Set(copies.map((c) => c.actor))];
  const out = new Set<string>();
  if (copies.length === 0) return out;
  // A tie (one reader, one author: every single-pair remover) reads the reader's side: a big author's
  // partition holds every mutedBy and blockedBy of theirs, and the read is strongly consistent.
  if (authors.length < readers.length) {
    const shielded = await Promise.all(authors.map((a) => shieldedFrom(a, { consistent: true })));
    authors.forEach((a, i) => shielded[i]!.forEach((reader) => out.add(pairId(reader, a))));
  } else {
    const hidden = await Promise.all(readers.map((r) => hiddenAuthorsOf(r, { consistent: true })));
    readers.forEach((r, i) => hidden[i]!.forEach((author) => out.add(pairId(r, author))));
  }
  return out;
}
