/**
 * cleanup job: after an unfollow, remove the followee's posts from the ex-follower's home feed
 * without reading that feed: every copy has its original's rk, so the candidates are the
 * followee's originals that could have been copied — all posted since the follow, plus the
 * BACKFILL_LIMIT newest before it — tombstones included (a post deleted meanwhile may still have
 * its copy here: the retract only visits current followers). Cost ∝ those candidates. A candidate
 * goes only when the copy rule no longer keeps it (copy-facts.ts): a post another road still
 * brings — a tag the reader follows as push — stays.
 * Deletes by key only the copies of this followee, so it composes with a concurrent trim.
 * muteCleanup: a mute, or a block either way, hides the author's posts by every road: the
 * candidates are those of the follow (as above) and those a push-followed tag could have brought
 * (since the earliest such follow). Both run twice: at once, and again CONTROL_SETTLE later, for a
 * fan-out page that read its followers before the change and wrote after the first run (a worker
 * attempt ends within its timeout, which the settle exceeds).
 */
import { wantsPosts } from '../../model/follow-edge.js';
import { rangeKeyOf } from '../../model/range-key.js';
import { originalKeysWhile } from '../../stores/feed-store.js';
import { clearPending, deleteGoneEdge, getEdge } from '../../stores/follow-store.js';
import { nowTicks } from '../../platform/clock.js';
import { TAG_FOLLOWS_READ, tagFollowsPage } from '../../stores/tag-store.js';
import { keptCopies } from '../copy-facts.js';
import { removeCopies } from '../home-feed-copies.js';
import { hiddenAuthorsOf } from '../tags/hidden.js';
import { FANOUT_SLACK_MS } from '../tags/tag-cleanup.js';
import { pushFeedRemovals } from '../realtime/push.js';
import { ageBound } from '../retention/bounds.js';
import { homeFeedPolicy } from '../retention/retention-policy.js';
import { enqueueJob } from '../jobs/bus.js';
import type { JobRunner } from '../jobs/define.js';
import { backfillLimit } from './backfill.js';
import { cleanupJob, muteCleanupJob } from './cleanup-jobs.js';

export async function cleanup(follower: string, followee: string, final = false): Promise<void> {
  const edge = await getEdge(follower, followee);
  if (edge?.state !== 'gone') return; // followed again: keep the feed as it is
  await removeFolloweePosts(follower, followee, edge.followedAt);
  // The settle run is the last one: the gone edge has done its job (it names both users; an erase
  // could not find it from the followee's side), so it goes — unless followed again meanwhile.
  if (final) await deleteGoneEdge(follower, followee, edge.order);
  else await clearPending(follower, followee, 'cleanupPending', 'gone');
}

/**
 * muteCleanup job: `author`'s posts leave `reader`'s feed while a mute or a block stands between
 * them (a lifted one keeps the feed): every copy the follow or a push-followed tag can have put there,
 * in one scan of the author's timeline from the earlier of the two roads' openings (with the follow's
 * backfill allowance before it when there is a follow: the newest BACKFILL_LIMIT before the follow
 * are either after the tag's opening or among the newest BACKFILL_LIMIT before it).
 * An unmute or unblock can land between the check and the deletes: its backfill (and a new post's
 * fan-out) may then write copies that the deletes take away, and nothing would write them back. So
 * the controls are read again after the deletes: lifted, the restore is owed once more (the same
 * backfill, with `tags`; idempotent). Read after, it is exhaustive: a lift after that read queued its
 * backfill after our deletes.
 */
export async function muteCleanup(reader: string, author: string): Promise<void> {
  if (!(await hiddenAuthorsOf(reader, { consistent: true })).has(author)) return;
  const [edge, tagFollows] = await Promise.all([getEdge(reader, author), tagFollowsPage(reader, TAG_FOLLOWS_READ)]);
  const tagSince = tagFollows.items
    .filter((f) => f.mode === 'push')
    .reduce<bigint | undefined>((min, f) => (min === undefined || f.followedAt < min ? f.followedAt : min), undefined);
  // A tag fan-out of a slightly older post may run after the tag's follow (tag-cleanup.ts FANOUT_SLACK_MS).
  const tagOpened = tagSince === undefined ? undefined : tagSince - BigInt(FANOUT_SLACK_MS) * 1_000_000n;
  const opened = [edge?.followedAt, tagOpened].filter((t): t is bigint => t !== undefined);
  if (opened.length === 0) return;
  const earliest = opened.reduce((a, b) => (a < b ? a : b));
  await removeFolloweePosts(reader, author, earliest, { backfill: edge !== undefined });
  if ((await hiddenAuthorsOf(reader, { consistent: true })).has(author)) return;
  if (tagOpened !== undefined || wantsPosts(await getEdge(reader, author)))
    await enqueueJob({ kind: 'backfill', follower: reader, followee: author, tags: true });
}

const homeFeedTtlMs = () => homeFeedPolicy().ttlMs;

/**
 * Delete from `follower`'s feed every copy of `followee`'s posts that a road opened at `followedAt`
 * can have put there (with `backfill`, the follow's BACKFILL_LIMIT before it too) and that the copy
 * rule no longer keeps.
 */
export async function removeFolloweePosts(follower: string, followee: string, followedAt: bigint, opts: { backfill?: boolean } = {}): Promise<void> {
  const followRk = rangeKeyOf(followedAt > 0n ? followedAt : 0n, 0n); // posts before the follow have rk ≥ this
  const backfilled = opts.backfill === false ? 0 : backfillLimit();
  // Backfill copied the newest BACKFILL_LIMIT posts that were live then: count live ones toward the
  // limit, and take every tombstone on the way (its copy may still be here; deleting none is harmless).
  // Copies expire with their post (FEED_TTL from the post's instant): past the age bound there is
  // nothing left to delete that a read would show, and TTL removes the rest. Stop there.
  const alive = ageBound(nowTicks(), homeFeedTtlMs());
  let live = 0;
  const candidates = await originalKeysWhile(
    followee,
    (rk, deleted) => (alive === undefined || rk < alive) && (rk < followRk || deleted || ++live <= backfilled),
  );
  const kept = await keptCopies(candidates.map((c) => ({ reader: follower, actor: followee, tags: c.tags, deleted: c.deleted })));
  const rks = candidates.filter((_, i) => !kept[i]).map((c) => c.rk);
  await removeCopies(rks.map((rk) => ({ owner: follower, rk })));
  await pushFeedRemovals(rks.map((rk) => ({ owner: follower, author: followee, rk })));
}

export const cleanupRunner: JobRunner<typeof cleanupJob> = { def: cleanupJob, run: (job) => cleanup(job.follower, job.followee, job.final === true) };
export const muteCleanupRunner: JobRunner<typeof muteCleanupJob> = { def: muteCleanupJob, run: (job) => muteCleanup(job.follower, job.followee) };
