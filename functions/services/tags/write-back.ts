/**
 * A reader's push tag follows in their stamp (services/reader-activity/stamp.ts), as their follows
 * of authors are:
 *   1. Raise the activity bound on their entry among each tag's push followers: from then on every
 *      tag fan-out copies to them again (fanout.ts reads the bound on the entry it reads anyway).
 *   2. Where copies stopped (`since`), write back the tags' entries made since — or since the tag's
 *      follow, if later (model/reader-activity.ts tagMissingSince) — after step 1: a tag fan-out page
 *      writes the tag's entry before it reads its followers, so a page that read the old bound had
 *      its entry written before this job read the tag's feed (strongly consistent), and a page that
 *      read later copies to the reader itself. Not the reader's own posts (their post wrote their
 *      copy), not authors hidden from or by them (hidden.ts, as the tag fan-out leaves them out).
 *   3. The re-checks: copies of posts deleted meanwhile are taken back and edited ones rewritten
 *      (live-originals.ts settleWritten); then a copy no road brings any longer — its tags
 *      unfollowed or edited away meanwhile, its author not followed — is taken back, as the copy
 *      rule decides (copy-facts.ts). An unfollow after that re-check has its own cleanup, which comes after our
 *      writes and covers every post since the follow.
 * Cost per page of tag follows: one UpdateItem per push follow, and on a return one Query of each
 * tag's feed, one of the reader's controls, one BatchGetItem of the posts' tag follows and authors'
 * edges, the originals' re-check and the copies (never more than the feed keeps).
 */
import { rkOf, ticksOfRangeKey } from '../../model/range-key.js';
import { tagMissingSince } from '../../model/reader-activity.js';
import type { TagFollow } from '../../model/tag-items.js';
import type { Item } from '../../platform/dynamo/query.js';
import { forEachLimit } from '../../platform/pool.js';
import { stampTagFollowerEntry, tagEntriesSince, TAG_FOLLOWS_READ, tagFollowsPage } from '../../stores/tag-store.js';
import { newestOriginals } from '../../stores/feed-store.js';
import { FANOUT_SLACK_MS } from './tag-cleanup.js';
import { tagKeysOf } from '../../model/tags.js';
import { removeCopies, writeCopies } from '../home-feed-copies.js';
import { settleWritten } from '../live-originals.js';
import { pushFeedItemsOf } from '../realtime/push.js';
import { hiddenAuthorsOf } from './hidden.js';
import { keptCopies } from '../copy-facts.js';
import { tagPageCopies } from '../../model/copy-rule.js';

/**
 * Step 1: `reader`'s bound on each of their push tag follows raised to `until` (removed with `off`),
 * `atOnce` entry writes in flight (the stamp job's pace: a restamp yields).
 */
export async function stampTagFollows(reader: string, follows: readonly TagFollow[], until: bigint | undefined, atOnce: number): Promise<void> {
  await forEachLimit(
    follows.filter((f) => f.mode === 'push'),
    atOnce,
    (f) => stampTagFollowerEntry(f.key, reader, until),
  );
}

/**
 * Steps 2 and 3 for one page of `reader`'s tag follows: at most `max` copies, the newest (a feed
 * keeps no more).
 */
export async function writeBackTagCopies(reader: string, follows: readonly TagFollow[], since: bigint, max: number): Promise<void> {
  const push = follows.filter((f) => f.mode === 'push');
  if (push.length === 0) return;
  const lists: Item[][] = [];
  const [hidden] = await Promise.all([
    hiddenAuthorsOf(reader),
    forEachLimit([...push.entries()], 16, async ([i, f]) => {
      lists[i] = await tagEntriesSince(f.key, tagMissingSince(since, f.followedAt), max);
    }),
  ]);
  // A post with two followed tags is one copy (same rk).
  const byRk = new Map<bigint, Item>();
  // What a tag fan-out would have copied to the reader (the copy rule; the bound is what is caught up).
  for (const entry of lists.flat())
    if (tagPageCopies(reader, String(entry.actor), hidden.has(String(entry.actor)), undefined, undefined)) byRk.set(rkOf(entry.rk), entry);
  const entries = [...byRk].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, max);
  await writeBackSources(
    reader,
    entries.map(([, entry]) => {
      const { pk: _pk, expiresAt: _e, ...fields } = entry; // the original's fields, as the tag fan-out copies them
      return fields;
    }),
  );
}

/**
 * After a mute or a block between them is lifted (mutes-blocks.ts unmute, unblock; the follow's
 * backfill job runs it): `author`'s posts that `reader`'s push tag follows bring, which the tag
 * fan-out skipped while the control stood or the control's cleanup took away. The candidates are the
 * author's newest `limit` live posts (a follow's backfill takes as many) posted since the follow of
 * one of their tags that the reader follows as push (less FANOUT_SLACK_MS): exactly what a later
 * mute's cleanup scans (follow-copies/unfollow-cleanup.ts), so it never writes a copy a cleanup
 * could not find. (An older post edited into the tag is not restored.) Nothing while a control still
 * hides the author. Then the re-checks a return's write-back makes.
 */
export async function restoreAuthorTagCopies(reader: string, author: string, limit: number): Promise<void> {
  const push = (await tagFollowsPage(reader, TAG_FOLLOWS_READ)).items.filter((f) => f.mode === 'push');
  if (push.length === 0) return;
  const [hidden, originals] = await Promise.all([hiddenAuthorsOf(reader, { consistent: true }), newestOriginals(author, limit, { tombstones: false })]);
  if (!tagPageCopies(reader, author, hidden.has(author), undefined, undefined)) return;
  const slack = BigInt(FANOUT_SLACK_MS) * 1_000_000n;
  const followedAt = new Map(push.map((f) => [f.key, f.followedAt - slack]));
  const joinedSince = (o: Item, at: bigint) => ticksOfRangeKey(rkOf(o.rk)) >= at;
  await writeBackSources(
    reader,
    originals.filter((o) =>
      tagKeysOf(o.tags).some((k) => {
        const at = followedAt.get(k);
        return at !== undefined && joinedSince(o, at);
      }),
    ),
  );
}

/**
 * Writes `sources` (originals' fields, newest first) back to `reader`'s feed, then the re-checks:
 * copies of posts deleted meanwhile are taken back and edited ones rewritten, and a copy no road
 * brings any longer is taken back, as the copy rule decides.
 */
async function writeBackSources(reader: string, sources: readonly Item[]): Promise<void> {
  if (sources.length === 0) return;
  const { written, copies } = await writeCopies(sources.map((source) => ({ owner: reader, source })));
  const groups = copies.map((c) => ({ author: String(c.source.actor), rk: rkOf(c.source.rk), source: c.source, owners: [reader], written }));
  const { gone, kept } = await settleWritten(groups);
  // Asked of each copy as settled (its current version's tags: an edit may have dropped the tag
  // meanwhile, and that edit's tagRetract may have passed before this write).
  const roads = await keptCopies(kept.map((g) => ({ reader, actor: g.author, tags: (g.source as { tags?: unknown }).tags })));
  await removeCopies([...gone, ...kept.filter((_, i) => !roads[i])].map((g) => ({ owner: reader, rk: g.rk })));
  await pushFeedItemsOf(kept.filter((_, i) => roads[i]).map((g) => ({ copies: [{ owner: reader, source: g.source }], seq: g.written })));
}
