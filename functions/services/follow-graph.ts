/**
 * The follow graph: follow / unfollow (one transaction each, see stores/follow-store.ts), the jobs
 * they start (backfill, cleanup, pull/unpull when the followee crosses the threshold), lists and
 * profiles. Both requests are idempotent: a repeat re-sends a job whose edge is still pending, so
 * a crash between the commit and the enqueue is repaired by the client's retry.
 * A user follows at most MAX_FOLLOWING users (each follow costs a backfill, each unfollow a
 * cleanup): one more is a ConflictError (409), decided inside the follow transaction.
 */
import { setting } from '../../lib/defs/config.js';
import { type FollowList, isFollowListSortKey } from '../model/follow-lists.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../model/domain-errors.js';
import { nowTicks } from '../platform/clock.js';
import { AGAIN, RETRY, retrying } from '../platform/retry.js';
import { followerShardKey, followerShardOf, pulledOnShard } from '../model/profile.js';
import { controlId, standingControlKeys, standingFrom } from '../stores/controls-store.js';
import { hasOriginals } from '../stores/feed-store.js';
import { profileAndErasure } from '../stores/erasure-store.js';
import { clearPending, createEdge, getEdge, getProfile, listPage, readGraphKeys, removeEdge } from '../stores/follow-store.js';
import { controlSettleSeconds } from './controls-state.js';
import { enqueueJob } from './jobs/bus.js';
import { followDelivery, notifyJobs } from './notifications/events.js';
import { pullThresholds } from './pulled-authors/thresholds.js';
import { afterCursor, type ListPage, listPageOf, type ListRequest } from './list-page.js';

/** How long after a follow a repeated PUT re-sends its notify job (a no-op if it already landed). */
const RENOTIFY_WINDOW_NS = 3_600n * 1_000_000_000n;

/** The followee's "new follower" notification (exactly once: the event id is the follow's). */
async function notifyFollow(follower: string, followee: string, followedAt: bigint): Promise<void> {
  for (const job of notifyJobs([followDelivery(follower, followee, followedAt)])) await enqueueJob(job);
}

/**
 * The backfill of a new follow, unless the followee never posted: then there is nothing to copy and
 * the edge's pending flag is cleared here (what the job would end with) instead of queueing a job
 * that changes nothing. Checked after the edge committed, strongly consistent: a post written after
 * the check is fanned out to a follower list that already holds the edge.
 */
async function startBackfill(follower: string, followee: string): Promise<void> {
  if (await hasOriginals(followee)) await enqueueJob({ kind: 'backfill', follower, followee });
  else await clearPending(follower, followee, 'backfillPending', 'active');
}

const maxFollowingOf = () => setting('MAX_FOLLOWING');

/**
 * What a follow's transaction decides on, in one BatchGet: whether `followee` is pulled, read on the
 * shard the follow counts on (the copy the transaction checks), whether `follower` muted them, and
 * whether they have an erase mark.
 */
async function followStart(
  follower: string,
  followee: string,
  shard: number,
): Promise<{ pulled: boolean; muted: boolean; blocking: boolean; erased: boolean }> {
  const controls = [
    { kind: 'mute' as const, user: follower, target: followee },
    { kind: 'block' as const, user: follower, target: followee },
  ];
  const found = await readGraphKeys([followerShardKey(followee, shard), ...standingControlKeys(controls, { erasing: followee })]);
  const { standing, erased } = standingFrom(found, controls, { erasing: followee });
  return {
    pulled: pulledOnShard(found, followee, shard),
    muted: standing.has(controlId('mute', follower, followee)),
    blocking: standing.has(controlId('block', follower, followee)),
    erased,
  };
}

export async function follow(follower: string, followee: string): Promise<void> {
  if (follower === followee) {
    throw new ValidationError('You cannot follow yourself.', [{ field: 'path.userId', message: 'must not be the caller' }]);
  }
  const result = await retrying(`follow ${follower} → ${followee}`, RETRY.request, async (attempt) => {
    const shard = followerShardOf(follower, attempt); // a retry counts on the next shard (model/profile.ts)
    const { pulled, muted, blocking, erased } = await followStart(follower, followee, shard);
    // The mark read here catches a finished erase; the transaction checks its copy on the shard it
    // counts on (an erase starting meanwhile).
    if (erased) throw new NotFoundError('No such user.');
    // A block hides both ways and ends the follows; a follow of the user one blocks would bring nothing
    // (and its backfill and fan-out would copy what the block hides). Only the caller's own block is
    // read here, not checked in the transaction: a block racing its own author's follow harms no one else.
    if (blocking) throw new ForbiddenError('You have blocked this user; unblock them to follow.');
    const followedAt = nowTicks();
    const outcome = await createEdge(follower, followee, followedAt, pulled, maxFollowingOf(), muted, shard);
    if (outcome === 'limit') {
      throw new ConflictError(`You already follow ${maxFollowingOf()} users, the most one user may follow; unfollow someone first.`);
    }
    if (outcome === 'blocked') throw new ForbiddenError('This user has blocked you.');
    if (outcome === 'erased') throw new NotFoundError('No such user.');
    if (outcome === 'done') return { made: true as const, followedAt, backfill: !pulled && !muted };
    if (outcome === 'condition_failed') {
      const edge = await getEdge(follower, followee);
      if (edge?.state === 'active') return { made: false as const, edge };
    }
    return AGAIN; // the pulled flag changed, a conflicting transaction, or the edge flipped
  });
  if (result.made) {
    if (result.backfill) await startBackfill(follower, followee);
    await notifyFollow(follower, followee, result.followedAt);
    await checkThreshold(followee);
    return;
  }
  const { edge } = result;
  if (edge.backfillPending) await enqueueJob({ kind: 'backfill', follower, followee });
  // A repeat soon after the follow may be the retry of a request whose notify job never left.
  if (nowTicks() - edge.followedAt < RENOTIFY_WINDOW_NS) await notifyFollow(follower, followee, edge.followedAt);
}

export async function unfollow(follower: string, followee: string): Promise<void> {
  const outcome = await retrying(`unfollow ${follower} → ${followee}`, RETRY.request, async (attempt) => {
    const edge = await getEdge(follower, followee);
    if (!edge) return 'none';
    if (edge.state === 'gone') return edge.cleanupPending ? 'owed' : 'none'; // a repeat: its cleanup may not have been queued
    const removed = await removeEdge(follower, followee, edge.order, followerShardOf(follower, attempt));
    return removed === 'done' ? 'removed' : AGAIN; // raced another follow/unfollow of the same edge: re-read and retry
  });
  if (outcome === 'none') return;
  await enqueueJob({ kind: 'cleanup', follower, followee });
  // Again once any fan-out page that read the old follower list has written (see follow-copies/unfollow-cleanup.ts).
  await enqueueJob({ kind: 'cleanup', follower, followee, final: true }, controlSettleSeconds());
  if (outcome === 'removed') await checkThreshold(followee);
}

/**
 * After a follow or unfollow: if the followee crossed the pull threshold (up at ≥ T, down below
 * 90 % of T), enqueue the job that moves them between push and pull. Checked after every change,
 * so a crash before the enqueue is repaired by the next follow/unfollow of that user.
 */
export async function checkThreshold(userId: string): Promise<'pull' | 'unpull' | undefined> {
  const { followers, pulled } = await getProfile(userId, { consistent: true });
  const { pullAt, unpullBelow } = pullThresholds();
  const kind = !pulled && followers >= pullAt ? 'pull' : pulled && followers < unpullBelow ? 'unpull' : undefined;
  if (kind) await enqueueJob({ kind, author: userId });
  return kind;
}

/** One page of a follow list, newest follow first (list-page.ts). */
export async function listFollows(which: FollowList, userId: string, req: ListRequest): Promise<ListPage<{ userId: string }>> {
  const page = await listPage(which, userId, req.limit, afterCursor(req.cursor, isFollowListSortKey));
  return listPageOf(page, (f) => ({ userId: f.userId }));
}

/** A user's follow counts; 404 once the user was erased. */
export async function profileOf(userId: string): Promise<{ followers: number; following: number }> {
  const { profile, erased } = await profileAndErasure(userId);
  if (erased) throw new NotFoundError('No such user.');
  return { followers: profile.followers, following: profile.following };
}
