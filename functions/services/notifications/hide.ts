/**
 * Hide a deleted activity from notifications. Groups about it (reactions and comments on it, its
 * mentions: object = the activity id) are removed from its author's and each mentioned user's
 * feed; a `to` group (object = the activity's own object) loses the activity — removed if it was
 * the only one, otherwise counted one less. Idempotent: a second run finds nothing to change.
 */
import { activityIdOf } from '../../model/activity-id.js';
import { mentionsIn } from '../../model/mentions.js';
import { dayOf, groupIdOf, removalDelta } from '../../model/notification.js';
import { ticksOfRangeKey } from '../../model/range-key.js';
import { backoff } from '../../platform/pool.js';
import { allGroups, readGroup, removeGroup, writeGroupMark } from '../../stores/notification-store.js';
import { expiresAtOf, notificationPolicy } from './policy.js';

export interface DeletedPost {
  readonly author: string;
  readonly rk: bigint;
  readonly verb: string;
  readonly object?: string;
  readonly content?: string;
  readonly to?: readonly string[];
}

const MAX_ATTEMPTS = 8;

export async function hideFromNotifications(post: DeletedPost): Promise<void> {
  const id = activityIdOf(post.author, post.rk);
  for (const recipient of new Set([post.author, ...mentionsIn(post.content)])) await removeGroupsAbout(recipient, id);
  const gid = groupIdOf(post.verb, post.object ?? id, dayOf(ticksOfRangeKey(post.rk)));
  for (const recipient of new Set(post.to ?? [])) await dropFromToGroup(recipient, gid, id);
}

/** Remove every group of `recipient` about `object`; a removal that lost a race (the group or the head changed) is retried. */
async function removeGroupsAbout(recipient: string, object: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const groups = await allGroups(recipient, object);
    let lost = false;
    for (const group of groups) if (!(await removeGroup(recipient, group, removalDelta(group)))) lost = true;
    if (!lost) return;
    if (attempt >= MAX_ATTEMPTS) throw new Error(`hide ${object} from ${recipient}: gave up`); // the job comes back
    await backoff(attempt, 10, 200);
  }
}

async function dropFromToGroup(recipient: string, gid: string, id: string): Promise<void> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const group = await readGroup(recipient, gid);
    if (!group || !group.sources.includes(id)) return;
    const sources = group.sources.filter((s) => s !== id);
    const done =
      sources.length === 0
        ? await removeGroup(recipient, group, removalDelta(group))
        : await writeGroupMark(
            recipient,
            group,
            { ...group, sources, activityCount: Math.max(1, group.activityCount - 1), version: group.version + 1 },
            { unseen: 0, unread: 0, groups: 0 },
            expiresAtOf(group.day, notificationPolicy().ttlMs),
          );
    if (done) return;
    await backoff(attempt, 10, 200);
  }
  throw new Error(`hide ${id} from ${recipient}: gave up`);
}
