/**
 * POST /notifications/seen and /read: mark the named groups (or, with no ids, every group in the
 * window) seen or read — read implies seen. Each group changes in one transaction with the head's
 * counts, conditioned on the version read; a group a job updated meanwhile is re-read and marked
 * at its new version. Unknown or foreign ids change nothing.
 */
import { markGroup, parseGroupId } from '../../model/notification.js';
import { forEachLimit } from '../../platform/pool.js';
import { AGAIN, RETRY, retrying } from '../../platform/retry.js';
import { allGroups, readGroup, writeGroupMark } from '../../stores/notification-store.js';
import { expiresAtOf, notificationPolicy, windowStart } from './notification-policy.js';
import { notificationCounts } from './read-notifications.js';
import { pushNotificationCounts } from '../realtime/push.js';

const CONCURRENCY = 4;

export async function markNotifications(recipient: string, what: 'seen' | 'read', ids?: readonly string[]): Promise<void> {
  const policy = notificationPolicy();
  const window = windowStart(Date.now(), policy.ttlMs);
  const targets = ids
    ? [...new Set(ids)].filter((id) => (parseGroupId(id)?.day ?? '') >= window.day)
    : (await allGroups(recipient)).filter((g) => g.day >= window.day && (what === 'read' ? !g.read : !g.seen)).map((g) => g.gid);
  let changed = false;
  await forEachLimit(targets, CONCURRENCY, async (gid) => {
    await retrying(`mark ${what} ${recipient} ${gid}`, RETRY.step, async () => {
      const state = await readGroup(recipient, gid);
      const change = state && markGroup(state, what);
      if (!state || !change) return undefined;
      if (!(await writeGroupMark(recipient, state, change.next, change.delta, expiresAtOf(state.day, policy.ttlMs)))) return AGAIN;
      changed = true;
      return undefined;
    });
  });
  // Realtime: the user's other tabs and devices see the badge change.
  if (changed) await pushNotificationCounts(recipient, () => notificationCounts(recipient));
}
