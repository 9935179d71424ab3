/**
 * "Whose copy is this?" for the tag jobs, decided in one place: whether a post still has a road into
 * a reader's home feed besides the tag that is leaving it (a tag unfollowed, a tag an edit dropped,
 * a tag whose fan-out found the post no longer carries it). Only roads that keep a stored copy
 * current count, since the copy is kept only while something will also take it back:
 *   - the reader's own post (their post wrote their copy);
 *   - a follow of its author that wants posts (active, not muted: model/follow-edge.ts), while the
 *     author is not pulled — a pulled author's posts are merged at read time and their delete
 *     retracts no follower's copy, so a copy kept for them would outlive the post;
 *   - a push follow of another of its tags (a pull follow merges the tag's feed at read time).
 * Cost: one strongly consistent BatchGet of the edges and tag follows asked about, and one profile
 * Query per distinct followed author (their `pulled` flag).
 */
import { followEdgeKey, followerOfEdgePk, parseEdge, wantsPosts } from '../../model/follow-edge.js';
import { parseTagFollow, tagFollowKey, userOfTagFollowPk } from '../../model/tag-items.js';
import { hasOtherRoad } from '../../model/reader-activity.js';
import { tagKeysOf } from '../../model/tags.js';
import { getProfile, readGraphKeys } from '../../stores/follow-store.js';

/** A reader's copy of a post by `actor` carrying `tags` (as stored: tagKeysOf reads them). */
export interface CopyRoad {
  readonly reader: string;
  readonly actor: string;
  readonly tags: unknown;
}

/** A key's identity, for asking each key once. */
const keyId = (key: { pk: string; sk: string }) => `${key.pk}\n${key.sk}`;

/** For each of `copies`, whether it has a road other than the tag `leaving` (none: every tag counts). */
export async function otherRoads(copies: readonly CopyRoad[], leaving?: string): Promise<boolean[]> {
  const asked = copies.filter((c) => c.actor !== c.reader);
  const keys = new Map<string, Record<string, unknown>>();
  for (const c of asked) {
    const edge = followEdgeKey(c.reader, c.actor);
    keys.set(keyId(edge), edge);
    for (const k of tagKeysOf(c.tags).filter((t) => t !== leaving)) {
      const follow = tagFollowKey(c.reader, k);
      keys.set(keyId(follow), follow);
    }
  }
  const found = keys.size ? await readGraphKeys([...keys.values()]) : [];
  const pushTags = new Map<string, Set<string>>(); // reader → tag keys followed as push
  const follows = new Map<string, Set<string>>(); // reader → authors followed (wanting posts)
  const add = (m: Map<string, Set<string>>, reader: string, value: string) => m.set(reader, (m.get(reader) ?? new Set()).add(value));
  for (const item of found) {
    const tagFollower = userOfTagFollowPk(String(item.pk));
    if (tagFollower !== undefined) {
      if (parseTagFollow(item)?.mode === 'push') add(pushTags, tagFollower, String(item.sk));
    } else if (wantsPosts(parseEdge(item))) add(follows, followerOfEdgePk(String(item.pk)), String(item.sk));
  }
  const followedAuthors = [...new Set([...follows.values()].flatMap((s) => [...s]))];
  const pulled = new Set<string>();
  await Promise.all(followedAuthors.map(async (a) => ((await getProfile(a, { consistent: true })).pulled ? pulled.add(a) : undefined)));
  const none = new Set<string>();
  return copies.map((c) => {
    const authors = new Set([...(follows.get(c.reader) ?? none)].filter((a) => !pulled.has(a)));
    return hasOtherRoad(c, c.reader, leaving, pushTags.get(c.reader) ?? none, authors);
  });
}
