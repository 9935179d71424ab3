/**
 * Count retention of a notification feed: once more than maxItems + margin groups are stored in
 * the window, the oldest are removed (each with its order item, claims and its share of the head's
 * counts) until maxItems remain. Checked only when a job created a group, from the head as read
 * after that job's write (the notify batch reads its recipients' heads in one BatchGet), so a feed
 * below its bound pays no more than its share of that read. Age retention needs no deletes:
 * days outside the window are neither paged nor counted, and TTL removes their items.
 */
import { countsOfHead, parseGroup, removalDelta } from '../../model/notification.js';
import type { Item } from '../../platform/dynamo/query.js';
import { oldestGroups, removeGroup } from '../../stores/notification-store.js';
import { notificationPolicy, windowStart } from './notification-policy.js';

/** `head`: the recipient's head, read strongly consistent after the write that created a group. */
export async function trimIfDue(recipient: string, head: Item | undefined): Promise<number> {
  const policy = notificationPolicy();
  const window = windowStart(Date.now(), policy.ttlMs);
  const { groups } = countsOfHead(head, window.day);
  if (groups <= policy.maxItems + policy.margin) return 0;
  let removed = 0;
  for (const item of await oldestGroups(recipient, window.ticks, groups - policy.maxItems)) {
    const state = parseGroup(item);
    // A group that changed since the read moved up (it is no longer among the oldest): skip it.
    if (state && (await removeGroup(recipient, state, removalDelta(state)))) removed++;
  }
  return removed;
}
