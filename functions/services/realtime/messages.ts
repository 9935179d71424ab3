/**
 * What the realtime API pushes: JSON text messages with a `type` (docs/realtime.md).
 *   feed.item     a copy landed in the user's home feed: the activity as GET /feed returns it, and
 *                 `seq` — when the copy was written (server ticks, a decimal string); the client
 *                 keeps the largest it saw and catches up from it (GET /realtime/missed)
 *   feed.update   an activity in the user's home feed was edited: the activity as it now is (same
 *                 id and position, a higher `version`), and `seq` as for feed.item
 *   feed.remove   a copy left the user's home feed (delete, unfollow/mute/block cleanup, erase)
 *   notification  the user's notification counts changed
 */
import { activityIdOf } from '../../model/activity-id.js';
import { type Activity, toActivity } from '../../model/activity.js';
import type { CopySource } from '../../model/feed-copy.js';

export type RealtimeMessage =
  | { readonly type: 'feed.item'; readonly item: Activity; readonly seq: string }
  | { readonly type: 'feed.update'; readonly item: Activity; readonly seq: string }
  | { readonly type: 'feed.remove'; readonly id: string }
  | { readonly type: 'notification'; readonly unseen: number; readonly unread: number };

export const feedItemMessage = (source: CopySource, seq: bigint): RealtimeMessage => ({ type: 'feed.item', item: toActivity(source), seq: seq.toString() });

export const feedUpdateMessage = (source: CopySource, seq: bigint): RealtimeMessage => ({ type: 'feed.update', item: toActivity(source), seq: seq.toString() });

export const feedRemoveMessage = (author: string, rk: bigint): RealtimeMessage => ({ type: 'feed.remove', id: activityIdOf(author, rk) });

export const notificationMessage = (counts: { unseen: number; unread: number }): RealtimeMessage => ({ type: 'notification', ...counts });
