/**
 * Where notifications come from, as notify jobs (one recipient, ≤ MAX_JOB_EVENTS events each):
 *
 *   a reaction or comment   the counter item's stream record (its `ev`): to the activity's author
 *   a mention `@userId`     the new original's stream INSERT: to each mentioned user (verb
 *                           `mention`, object = the mentioning activity)
 *   `to: [...]`             the same INSERT: to each target, with the activity's verb and object
 *                           (kind `to`: a group of its own, never a follow, reaction or comment group)
 *   a new follower          the follow request, once its edge is committed (services/follow-graph.ts)
 *   an edit                 the original's stream MODIFY: a mention to each user the new content
 *                           mentions and the old did not (editMentionDeliveries); and, from the
 *                           edit job, an `edit` to those who reacted or commented (edits/notices.ts)
 *
 * Event ids are deterministic, so a redelivered record or a repeated request produces the same
 * event and the claim in its group makes the second one a no-op. Acting on your own things notifies
 * no one: events whose actor is the recipient are dropped here.
 */
import { activityIdOf } from '../../model/activity-id.js';
import { mentionsIn } from '../../model/mentions.js';
import { addressedEventId, kindOfEventWithoutKind, type NotificationEvent } from '../../model/notification.js';
import { ticksOfRangeKey } from '../../model/range-key.js';
import { COMMENT_KIND, type CounterEvent } from '../../model/reaction.js';
import type { JobOf } from '../jobs/define.js';
import { MAX_JOB_EVENTS, type notifyJob } from './notify-job.js';

export type NotifyJob = JobOf<typeof notifyJob>;

/** Group events by recipient into jobs of at most MAX_JOB_EVENTS, dropping self-notifications. */
export function notifyJobs(deliveries: readonly { recipient: string; event: NotificationEvent }[]): NotifyJob[] {
  const byRecipient = new Map<string, NotificationEvent[]>();
  for (const { recipient, event } of deliveries) {
    if (recipient === event.actor) continue;
    byRecipient.set(recipient, [...(byRecipient.get(recipient) ?? []), event]);
  }
  const jobs: NotifyJob[] = [];
  for (const [recipient, events] of byRecipient) {
    for (let i = 0; i < events.length; i += MAX_JOB_EVENTS) {
      jobs.push({
        kind: 'notify',
        recipient,
        events: events.slice(i, i + MAX_JOB_EVENTS).map((e) => ({ ...e, ticks: e.ticks.toString() })),
      });
    }
  }
  return jobs;
}

export const eventsOfJob = (job: NotifyJob): NotificationEvent[] =>
  job.events.map((e) => ({ ...e, kind: e.kind ?? kindOfEventWithoutKind(e), ticks: BigInt(e.ticks) }));

/** A reaction or comment on `activityId` (from its counter's `ev`): to the activity's author. */
export function reactionDelivery(activityId: string, author: string, ev: CounterEvent) {
  const event: NotificationEvent = {
    kind: ev.kind === COMMENT_KIND ? 'comment' : 'reaction',
    verb: ev.kind,
    object: activityId,
    actor: ev.actor,
    id: `${ev.kind}:${ev.actor}:${ev.ticks}${ev.commentId ? `:${ev.commentId}` : ''}`,
    ticks: ev.ticks,
    source: activityId,
  };
  return { recipient: author, event };
}

/** Mentions and targets of a new original (its stored fields). */
export function postDeliveries(post: {
  author: string;
  rk: bigint;
  verb: string;
  object?: string;
  content?: string;
  to?: readonly string[];
}): { recipient: string; event: NotificationEvent }[] {
  const id = activityIdOf(post.author, post.rk);
  const ticks = ticksOfRangeKey(post.rk);
  const mentions = mentionsIn(post.content).map((recipient) => ({
    recipient,
    event: { kind: 'mention' as const, verb: 'mention', object: id, actor: post.author, id: `mention:${id}`, ticks, source: id },
  }));
  const targets = [...new Set(post.to ?? [])].map((recipient) => ({
    recipient,
    event: { kind: 'to' as const, verb: post.verb, object: post.object ?? id, actor: post.author, id: addressedEventId(id), ticks, source: id },
  }));
  return [...mentions, ...targets];
}

/** A new follower: to the followee; one event per follow (its ticks), so a repeat is a no-op. */
export function followDelivery(follower: string, followee: string, followedAt: bigint) {
  const event: NotificationEvent = {
    kind: 'follow',
    verb: 'follow',
    object: followee,
    actor: follower,
    id: `follow:${follower}:${followedAt}`,
    ticks: followedAt,
  };
  return { recipient: followee, event };
}

/**
 * The users an edit newly mentions (in the new content, not in the old), each a mention as a post's
 * — its event id the post's own, so a user mentioned before (that day) stays notified once — at
 * the edit's time (`editedTicks`): it is news now.
 */
export function editMentionDeliveries(post: { author: string; rk: bigint; before?: string; after?: string; editedTicks: bigint }) {
  const id = activityIdOf(post.author, post.rk);
  const before = new Set(mentionsIn(post.before));
  return mentionsIn(post.after)
    .filter((recipient) => !before.has(recipient))
    .map((recipient) => ({
      recipient,
      event: { kind: 'mention' as const, verb: 'mention', object: id, actor: post.author, id: `mention:${id}`, ticks: post.editedTicks, source: id },
    }));
}

/** An edit (to `version`) of `activityId`: to someone who reacted or commented, grouped per activity and day. */
export function editDelivery(recipient: string, author: string, activityId: string, version: number, editedTicks: bigint) {
  const event: NotificationEvent = {
    kind: 'edit',
    verb: 'edit',
    object: activityId,
    actor: author,
    id: `edit:${activityId}:${version}`,
    ticks: editedTicks,
    source: activityId,
  };
  return { recipient, event };
}
