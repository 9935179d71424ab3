/**
 * Mute and block (PUT/DELETE /mutes/{userId}, /blocks/{userId}, and their lists).
 *
 * Mute: the follow stays (counts unchanged) but the muted user's posts leave the muter's feed —
 * stored copies by a cleanup (run twice: now and CONTROL_SETTLE later, for a fan-out page already
 * in flight), new ones because the fan-out skips followers flagged `muted`, a pulled author's
 * because they leave the muter's pulled set — and their actions no longer notify the muter.
 * Unmute brings recent posts back the way a follow does (backfill), or the author back into the
 * pulled set.
 *
 * Block: removes both follow edges (counts exact, each side's copies of the other's posts cleaned
 * up like an unfollow); while it stands the blocked user cannot follow (403), react or comment
 * (403), notify, or read the blocker's timeline and activities (404).
 */
import { controlEntry, encodeControlCursor, decodeControlCursor, type Control } from '../model/user-controls.js';
import { invalidCursor, ValidationError } from '../model/errors.js';
import { backoff } from '../platform/pool.js';
import { controlPage, liftBlock, liftMute, placeBlock, placeMute } from '../stores/controls-store.js';
import { addPulledWhileFollowing, getEdge, getProfile } from '../stores/graph-store.js';
import { controlSettleSeconds } from './controls-state.js';
import { enqueueJob } from './jobs/bus.js';
import { unfollow } from './following.js';

const MAX_ATTEMPTS = 8;

function notYourself(caller: string, target: string, what: string): void {
  if (caller === target) throw new ValidationError(`You cannot ${what} yourself.`, [{ field: 'path.userId', message: 'must not be the caller' }]);
}

const activeFollow = async (user: string, target: string) => {
  const edge = await getEdge(user, target);
  return edge?.state === 'active' ? { order: edge.order } : undefined;
};

export async function mute(caller: string, target: string): Promise<void> {
  notYourself(caller, target, 'mute');
  for (let attempt = 1; ; attempt++) {
    const follow = await activeFollow(caller, target);
    const outcome = await placeMute(caller, target, follow);
    if (outcome === 'noop') return;
    if (outcome === 'done') {
      if (follow) {
        await enqueueJob({ kind: 'muteCleanup', follower: caller, followee: target });
        await enqueueJob({ kind: 'muteCleanup', follower: caller, followee: target }, controlSettleSeconds());
      }
      return;
    }
    if (attempt >= MAX_ATTEMPTS) throw new Error(`mute ${caller} → ${target}: gave up after ${attempt} attempts`);
    await backoff(attempt); // the follow changed between the read and the transaction
  }
}

export async function unmute(caller: string, target: string): Promise<void> {
  notYourself(caller, target, 'unmute');
  for (let attempt = 1; ; attempt++) {
    const follow = await activeFollow(caller, target);
    const outcome = await liftMute(caller, target, follow);
    if (outcome === 'noop') return;
    if (outcome === 'done') {
      if (!follow) return;
      if ((await getProfile(target, { consistent: true })).pulled) await addPulledWhileFollowing(caller, target);
      else await enqueueJob({ kind: 'backfill', follower: caller, followee: target });
      return;
    }
    if (attempt >= MAX_ATTEMPTS) throw new Error(`unmute ${caller} → ${target}: gave up after ${attempt} attempts`);
    await backoff(attempt);
  }
}

export async function block(caller: string, target: string): Promise<void> {
  notYourself(caller, target, 'block');
  // A follow's transaction checks this very item: a conflict with one is retried, never taken for "already blocked".
  for (let attempt = 1; (await placeBlock(caller, target)) === 'edge_changed'; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`block ${caller} → ${target}: gave up after ${attempt} attempts`);
    await backoff(attempt);
  }
  // After the block stands the blocked user cannot follow the blocker (the follow transaction
  // checks it); the blocker may still choose to follow them. These end the follows that exist.
  // Repeated on a repeated PUT: each is a no-op once done.
  await unfollow(caller, target);
  await unfollow(target, caller);
}

export async function unblock(caller: string, target: string): Promise<void> {
  notYourself(caller, target, 'unblock');
  await liftBlock(caller, target);
}

export interface ControlListPage {
  /** `userId` null: a user who was erased (the mute or block stays in force should they come back). */
  items: { userId: string | null }[];
  next: string | null;
}

export async function listControls(kind: Control, caller: string, limit: number, cursor?: string): Promise<ControlListPage> {
  let after: string | undefined;
  if (cursor !== undefined) {
    after = decodeControlCursor(cursor);
    if (after === undefined) throw invalidCursor('query.before', 'a `next` from a previous page');
  }
  const page = await controlPage(kind, caller, limit, after);
  const last = page.targets.at(-1);
  return { items: page.targets.map(controlEntry), next: page.more && last !== undefined ? encodeControlCursor(last) : null };
}
