/**
 * Take a user out of other people's notification groups (an erase): their claim goes, the group
 * loses them and their events, or goes entirely when nothing else is left. And take one event back
 * (a deleted post's `to`): the actor's claim loses it, the group counts it no more, and the actor
 * leaves the group once no event of theirs is left in it.
 */
import { claimedEventId, type GroupState, type NotificationKind, removalDelta } from '../../model/notification.js';
import { AGAIN, RETRY, retrying } from '../../platform/retry.js';
import { actorIndexPage, allGroups, deleteActorIndexEntry, dropActorFromGroup, readGroup, readGroupAndClaims } from '../../stores/notification-store.js';
import { expiresAtOf, notificationPolicy } from './notification-policy.js';

/** Every group of `recipient` about `object` (only those of `kind`, if given), or the one group `gid`. */
export async function forgetActor(recipient: string, actor: string, which: { object: string; kind?: NotificationKind } | { gid: string }): Promise<void> {
  const groups: GroupState[] =
    'gid' in which
      ? [await readGroup(recipient, which.gid)].filter((g): g is GroupState => g !== undefined)
      : (await allGroups(recipient, which.object)).filter((g) => which.kind === undefined || g.kind === which.kind);
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

/** Take the event `eventId` of `actor` out of `recipient`'s group `gid`, and nothing else. Idempotent. */
export const forgetEvent = (recipient: string, gid: string, actor: string, eventId: string): Promise<void> =>
  dropFromGroup(recipient, gid, actor, claimedEventId(eventId));

/** All of the actor's events in the group, or only `only` (a claimed event id). */
async function dropFromGroup(recipient: string, gid: string, actor: string, only?: string): Promise<void> {
  await retrying(`forget ${only === undefined ? 'an actor' : 'an event'} in ${recipient}'s ${gid}`, RETRY.step, async () => {
    const { group, claims } = await readGroupAndClaims(recipient, gid, [actor]);
    const claim = claims.get(actor);
    if (!group || !claim || (only !== undefined && !claim.events.has(only))) return;
    const dropped = only === undefined ? claim.events.size : 1;
    const leaves = dropped === claim.events.size; // no event of theirs is left: the actor leaves the group
    const activityCount = group.activityCount - dropped;
    const actorCount = group.actorCount - (leaves ? 1 : 0);
    const next =
      activityCount > 0 && actorCount > 0
        ? { ...group, actors: leaves ? group.actors.filter((a) => a !== actor) : group.actors, actorCount, activityCount, version: group.version + 1 }
        : undefined;
    const expiresAt = expiresAtOf(group.day, notificationPolicy().ttlMs);
    const delta = next ? { unseen: 0, unread: 0, groups: 0 } : removalDelta(group);
    const partly = leaves ? undefined : { readSize: claim.events.size, remove: [only!] };
    return (await dropActorFromGroup(recipient, group, next, actor, delta, expiresAt, partly)) ? undefined : AGAIN;
  });
}
