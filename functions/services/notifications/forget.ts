/**
 * Take a user out of other people's notification groups (an erase): their claim goes, the group
 * loses them and their events, or goes entirely when nothing else is left.
 */
import { type GroupState, removalDelta } from '../../model/notification.js';
import { backoff } from '../../platform/pool.js';
import { actorIndexPage, allGroups, deleteActorIndexEntry, dropActorFromGroup, readGroup, readGroupAndClaims } from '../../stores/notification-store.js';
import { expiresAtOf, notificationPolicy } from './policy.js';

const MAX_ATTEMPTS = 8;

/** Every group of `recipient` about `object` (only `verb`'s, if given), or the one group `gid`. */
export async function forgetActor(recipient: string, actor: string, which: { object: string; verb?: string } | { gid: string }): Promise<void> {
  const groups: GroupState[] =
    'gid' in which
      ? [await readGroup(recipient, which.gid)].filter((g): g is GroupState => g !== undefined)
      : (await allGroups(recipient, which.object)).filter((g) => which.verb === undefined || g.verb === which.verb);
  for (const { gid } of groups) await dropFromGroup(recipient, gid, actor);
}

/**
 * One step of taking `actor` out of every group they are in, anyone's (their index): returns
 * whether there may be more.
 */
export async function forgetActorEverywhere(actor: string, limit: number): Promise<boolean> {
  const entries = await actorIndexPage(actor, limit);
  for (const e of entries) {
    await dropFromGroup(e.recipient, e.gid, actor);
    await deleteActorIndexEntry(e.key); // also when the group or claim was already gone
  }
  return entries.length > 0;
}

async function dropFromGroup(recipient: string, gid: string, actor: string): Promise<void> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const { group, claims } = await readGroupAndClaims(recipient, gid, [actor]);
    const claim = claims.get(actor);
    if (!group || !claim) return;
    const activityCount = group.activityCount - claim.events.size;
    const actorCount = group.actorCount - 1;
    const next =
      activityCount > 0 && actorCount > 0
        ? { ...group, actors: group.actors.filter((a) => a !== actor), actorCount, activityCount, version: group.version + 1 }
        : undefined;
    const expiresAt = expiresAtOf(group.day, notificationPolicy().ttlMs);
    if (await dropActorFromGroup(recipient, group, next, actor, next ? { unseen: 0, unread: 0, groups: 0 } : removalDelta(group), expiresAt)) return;
    await backoff(attempt, 10, 200);
  }
  throw new Error(`forget ${actor} in ${recipient}'s ${gid}: gave up`);
}
