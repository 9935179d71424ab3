/**
 * Hide a deleted activity from notifications — only what it contributed, nothing another user's
 * actions made:
 *   - in its author's feed, the reaction and comment groups about it (what was attached to it,
 *     purged with it);
 *   - in each mentioned user's feed, its mention group (object = the activity: only it makes one);
 *   - in each addressed (`to`) user's feed, its own event in their `to` group: the group counts it
 *     no more, its author leaves the group once no other event of theirs is in it, and the group
 *     goes when nothing is left.
 * Idempotent: a second run finds nothing to change.
 */
import { activityIdOf } from '../../model/activity-id.js';
import { mentionsIn } from '../../model/mentions.js';
import { addressedEventId, dayOf, groupIdOf, type NotificationKind, removalDelta } from '../../model/notification.js';
import { ticksOfRangeKey } from '../../model/range-key.js';
import { AGAIN, RETRY, retrying } from '../../platform/retry.js';
import { allGroups, removeGroup } from '../../stores/notification-store.js';
import { forgetEvent } from './forget.js';

export interface DeletedPost {
  readonly author: string;
  readonly rk: bigint;
  readonly verb: string;
  readonly object?: string;
  readonly content?: string;
  readonly to?: readonly string[];
}

export async function hideFromNotifications(post: DeletedPost): Promise<void> {
  const id = activityIdOf(post.author, post.rk);
  await removeGroupsAbout(post.author, id, ['reaction', 'comment']);
  for (const recipient of new Set(mentionsIn(post.content))) await removeGroupsAbout(recipient, id, ['mention']);
  const gid = groupIdOf(post.verb, post.object ?? id, dayOf(ticksOfRangeKey(post.rk)), 'to');
  for (const recipient of new Set(post.to ?? [])) await forgetEvent(recipient, gid, post.author, addressedEventId(id));
}

/** Remove every group of `recipient` about `object` of these kinds; a removal that lost a race (the group or the head changed) is retried. */
async function removeGroupsAbout(recipient: string, object: string, kinds: readonly NotificationKind[]): Promise<void> {
  await retrying(`hide ${object} from ${recipient}`, RETRY.step, async () => {
    const groups = (await allGroups(recipient, object)).filter((g) => kinds.includes(g.kind));
    let lost = false;
    for (const group of groups) if (!(await removeGroup(recipient, group, removalDelta(group)))) lost = true;
    return lost ? AGAIN : undefined; // past the retries, the job comes back
  });
}
