/**
 * Reading a notification feed: a page is one Query on the order items (most recently updated
 * first, inside the age window) beside one GetItem of the head for the counts; `counts` alone is
 * the GetItem. Neither ever scans: counts are kept per day in the head (model/notification.ts).
 */
import { countsOfHead, isOrderSk, orderBoundFor, toNotificationGroup, type NotificationGroup } from '../../model/notification.js';
import { groupPage, readHeadItem } from '../../stores/notification-store.js';
import { afterCursor, type ListPage, listPageOf, type ListRequest } from '../list-page.js';
import { notificationPolicy, windowStart } from './notification-policy.js';

/** A page of groups (list-page.ts), with the caller's unseen and unread counts beside it. */
export interface NotificationPage extends ListPage<NotificationGroup> {
  readonly unseen: number;
  readonly unread: number;
}

export async function readNotifications(recipient: string, req: ListRequest): Promise<NotificationPage> {
  const window = windowStart(Date.now(), notificationPolicy().ttlMs);
  const afterSk = afterCursor(req.cursor, isOrderSk);
  const beyondWindow = afterSk !== undefined && afterSk >= orderBoundFor(window.ticks);
  const [page, head] = await Promise.all([
    beyondWindow ? Promise.resolve({ items: [] }) : groupPage(recipient, window.ticks, req.limit, afterSk),
    readHeadItem(recipient),
  ]);
  const { unseen, unread } = countsOfHead(head, window.day);
  return { ...listPageOf(page, toNotificationGroup), unseen, unread };
}

export async function notificationCounts(recipient: string): Promise<{ unseen: number; unread: number }> {
  const { unseen, unread } = countsOfHead(await readHeadItem(recipient), windowStart(Date.now(), notificationPolicy().ttlMs).day);
  return { unseen, unread };
}
