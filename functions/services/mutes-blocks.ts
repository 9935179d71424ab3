/**
 * Mute and block (PUT/DELETE /mutes/{userId}, /blocks/{userId}, and their lists).
 *
 * Mute: the follow stays (counts unchanged) but the muted user's posts leave the muter's feed —
 * stored copies by a cleanup (run twice: now and CONTROL_SETTLE later, for a fan-out page already
 * in flight), new ones because the fan-out skips followers flagged `muted`, a pulled author's
 * because they leave the muter's pulled set — and their actions no longer notify the muter.
 * Unmute brings recent posts back the way a follow does (backfill), or the author back into the
 * pulled set, and the author's posts the muter's push tag follows bring (followed or not: the same
 * backfill job, with `tags`).
 *
 * Block: removes both follow edges (counts exact, each side's copies of the other's posts cleaned
 * up like an unfollow); while it stands the blocked user cannot follow (403), react or comment
 * (403), notify, or read the blocker's timeline and activities (404).
 *
 * Every PUT and DELETE is idempotent and a repeat repairs what a failed one left undone: a mute
 * whose cleanup jobs were not all queued keeps `cleanupPending` on its check entry, an unmute's
 * backfill is owed on the edge (`backfillPending`), a block's unfollows keep theirs on the edges —
 * so the client's retry of a request that failed after its commit queues the work again. Unblock
 * queues, every time, a backfill with `tags` each way: what a push-followed tag (or a follow made
 * during the block) brings comes back. Lost races are retried by the one retry loop (platform/retry.ts).
 */
import { wantsPosts } from '../model/follow-edge.js';
import { controlEntry, type Control, isControlTarget } from '../model/user-controls.js';
import { ValidationError } from '../model/domain-errors.js';
import { AGAIN, RETRY, retrying } from '../platform/retry.js';
import { controlPage, liftBlock, liftMute, mutePendingCleared, placeBlock, placeMute } from '../stores/controls-store.js';
import { getEdge, getProfile } from '../stores/follow-store.js';
import { controlSettleSeconds } from './controls-state.js';
import { enqueueJob } from './jobs/bus.js';
import { unfollow } from './follow-graph.js';
import { afterCursor, type ListPage, listPageOf, type ListRequest } from './list-page.js';

function notYourself(caller: string, target: string, what: string): void {
  if (caller === target) throw new ValidationError(`You cannot ${what} yourself.`, [{ field: 'path.userId', message: 'must not be the caller' }]);
}

const activeFollow = async (user: string, target: string) => {
  const edge = await getEdge(user, target);
  return edge?.state === 'active' ? edge : undefined;
};

export async function mute(caller: string, target: string): Promise<void> {
  notYourself(caller, target, 'mute');
  const { outcome } = await retrying(`mute ${caller} → ${target}`, RETRY.request, async () => {
    const follow = await activeFollow(caller, target);
    const outcome = await placeMute(caller, target, follow && { order: follow.order });
    return outcome === 'edge_changed' ? AGAIN : { outcome, follow }; // the follow changed between the read and the transaction
  });
  // A new mute (a followed tag may have brought the user's posts, followed or not), or a repeat of one whose cleanups may not all be queued.
  if (outcome === 'done' || outcome === 'pending') {
    await enqueueJob({ kind: 'muteCleanup', follower: caller, followee: target });
    await enqueueJob({ kind: 'muteCleanup', follower: caller, followee: target }, controlSettleSeconds());
    await mutePendingCleared(caller, target);
  }
}

export async function unmute(caller: string, target: string): Promise<void> {
  notYourself(caller, target, 'unmute');
  const { outcome, follow } = await retrying(`unmute ${caller} → ${target}`, RETRY.request, async () => {
    const edge = await activeFollow(caller, target);
    // A pulled followee goes back into the pulled set in the unmute's own transaction.
    const follow = edge && { edge, pulled: (await getProfile(target, { consistent: true })).pulled };
    const outcome = await liftMute(caller, target, follow && { order: follow.edge.order, pulled: follow.pulled });
    return outcome === 'edge_changed' ? AGAIN : { outcome, follow };
  });
  // The backfill this unmute owes the follow (and any push-followed tag) — or, on a repeat, one a
  // failed unmute left owed on the edge. (A repeat of a lifted mute with no edge queues nothing: the
  // tag's posts then wait for the next read's write-back or the next post.)
  const owed = follow !== undefined && !follow.pulled && follow.edge.backfillPending === true && wantsPosts(follow.edge);
  if (outcome === 'done' || owed) await restore(caller, target);
}

/**
 * What lifting a control owes `reader`: `author`'s posts their roads bring (the backfill job, with
 * `tags`), now and again CONTROL_SETTLE later — a fan-out page that read the controls (or the
 * followers entry's `muted`) a moment stale, before the lift, skipped the reader after the first run.
 */
async function restore(reader: string, author: string): Promise<void> {
  const job = { kind: 'backfill', follower: reader, followee: author, tags: true } as const;
  await enqueueJob(job);
  await enqueueJob(job, controlSettleSeconds());
}

export async function block(caller: string, target: string): Promise<void> {
  notYourself(caller, target, 'block');
  // A follow's transaction checks this very item: a conflict with one is retried, never taken for "already blocked".
  await retrying(`block ${caller} → ${target}`, RETRY.request, async () => ((await placeBlock(caller, target)) === 'edge_changed' ? AGAIN : undefined));
  // After the block stands neither may follow the other (the follow transaction checks the blocked
  // user's; follow-graph.ts reads the blocker's own). These end the follows that exist.
  // Repeated on a repeated PUT: each is a no-op once done.
  await unfollow(caller, target);
  await unfollow(target, caller);
  // What a followed tag brought either way goes too (the unfollows' cleanups take the follows' copies).
  for (const [reader, author] of [
    [caller, target],
    [target, caller],
  ] as const) {
    await enqueueJob({ kind: 'muteCleanup', follower: reader, followee: author });
    await enqueueJob({ kind: 'muteCleanup', follower: reader, followee: author }, controlSettleSeconds());
  }
}

export async function unblock(caller: string, target: string): Promise<void> {
  notYourself(caller, target, 'unblock');
  await liftBlock(caller, target);
  // Either side's posts a push-followed tag brings come back (a block hid them both ways), and a
  // follow the blocker made meanwhile brings its posts; where a control still stands, nothing is written.
  await restore(caller, target);
  await restore(target, caller);
}

/** One page of the caller's mutes or blocks (list-page.ts); `userId` null: a user who was erased (the control stays in force should they come back). */
export async function listControls(kind: Control, caller: string, req: ListRequest): Promise<ListPage<{ userId: string | null }>> {
  const page = await controlPage(kind, caller, req.limit, afterCursor(req.cursor, isControlTarget));
  return listPageOf(page, controlEntry);
}
