/**
 * A user's notification groups through the API, and waiting until they reach a state: for the
 * tests of what users can and cannot do to each other's notifications (abuse, no-harm).
 */
import type { NotificationGroup } from '../../functions/model/notification.js';
import { api, type ApiOptions } from './api.js';
import { eventually } from './wait.js';

export type { NotificationGroup };

/** `user`'s groups, newest first (one page of up to 100), on the shared stack or `on` a test file's own. */
export async function groupsOf(user: string, on?: ApiOptions['on']): Promise<NotificationGroup[]> {
  return (await api('GET', '/notifications?limit=100', { on, as: user })).body.items;
}

/** Waits until `user`'s groups satisfy `ok` (naming `what` if they never do), and returns them. */
export async function groupsWhen(
  user: string,
  ok: (groups: NotificationGroup[]) => boolean,
  what: string,
  opts: { on?: ApiOptions['on']; timeoutMs?: number } = {},
): Promise<NotificationGroup[]> {
  let groups: NotificationGroup[] = [];
  await eventually(async () => ok((groups = await groupsOf(user, opts.on))), { what, timeoutMs: opts.timeoutMs });
  return groups;
}
