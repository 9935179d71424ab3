/**
 * Notification retention (NOTIFICATIONS_MAX_ITEMS, NOTIFICATIONS_TTL) and the stranger bound
 * (NOTIFY_STRANGER_LIMIT), read once at cold start.
 * Age is by UTC day, like the groups: the window is today and the days back to now − TTL, so a
 * group leaves pages and counts together, the moment its day falls out.
 */
import { setting } from '../../../lib/defs/config.js';
import { dayOf } from '../../model/notification.js';

export interface NotificationPolicy {
  readonly maxItems: number;
  /** Stored groups beyond maxItems before a trim runs (amortized: pay per trim, not per group). */
  readonly margin: number;
  readonly ttlMs?: number;
}

let policy: NotificationPolicy | undefined;
export function notificationPolicy(): NotificationPolicy {
  if (!policy) {
    const maxItems = setting('NOTIFICATIONS_MAX_ITEMS');
    policy = { maxItems, margin: Math.max(1, Math.ceil(maxItems / 4)), ttlMs: setting('NOTIFICATIONS_TTL') };
  }
  return policy;
}

/** NOTIFY_STRANGER_LIMIT (undefined: off), read once: only the notify job needs it. */
export const notifyStrangerLimit = (): number | undefined => setting('NOTIFY_STRANGER_LIMIT');

const DAY_MS = 86_400_000;

/** The first UTC day inside the window, and the ticks at its start. */
export function windowStart(nowMs: number, ttlMs: number | undefined): { day: string; ticks: bigint } {
  if (ttlMs === undefined) return { day: '0000-00-00', ticks: 0n };
  const startMs = Math.floor((nowMs - ttlMs) / DAY_MS) * DAY_MS;
  const ticks = BigInt(Math.max(0, startMs)) * 1_000_000n;
  return { day: dayOf(ticks), ticks };
}

/** When a stranger's count of groups started on `day` may go: a day after that day ended. */
export const quotaExpiresAtOf = (day: string): number => Math.ceil((Date.parse(`${day}T00:00:00Z`) + 2 * DAY_MS) / 1000);

/** When a group's items expire: the end of its day plus the TTL (undefined: never). */
export function expiresAtOf(day: string, ttlMs: number | undefined): number | undefined {
  if (ttlMs === undefined) return undefined;
  return Math.ceil((Date.parse(`${day}T00:00:00Z`) + DAY_MS + ttlMs) / 1000);
}
