/**
 * v2 → v3, notification groups: what each event id a v2 claim holds was, and the group states
 * those events rebuild. v2 claims held the raw ids its constructors made
 * (91d8fe2 services/notifications/events.ts):
 *
 *   follow     `follow:<follower>:<ticks>`            object = the recipient
 *   reaction   `<kind>:<actor>:<ticks>`               object = an activity id (any kind, `follow`,
 *                                                     `mention` and `to` included)
 *   comment    `comment:<actor>:<ticks>:<commentId>`
 *   mention    `mention:<activityId>`                 object = that activity id
 *   to         `to:<activityId>` of the actor's post  verb and object = the post's own
 *
 * Every raw id holds `:`; a claimedEventId (22 base64url characters) never does. A `to` id is told
 * from a reaction of kind `to` by its tail: an activity id of the actor parses, `<actor>:<ticks>`
 * never does. v2 grouped by verb + object + day only, so a group mixes at most one other kind with
 * `to` (follow/reaction and mention/reaction never meet: one goes to the activity's author, the
 * other to someone else). v2's hide of a `to` post took the post out of the group's `sources` and
 * left its id in the claim: a `to` event is live only while its post is still in `sources`.
 */
import { parseActivityId } from '../../../model/activity-id.js';
import {
  addressedEventId,
  claimedEventId,
  foldEvents,
  type GroupState,
  kindOfVerb,
  MAX_GROUP_ACTORS,
  type NotificationKind,
} from '../../../model/notification.js';
import { ticksOfRangeKey } from '../../../model/range-key.js';

const TO_PREFIX = addressedEventId('');

/** A raw (v2) event id, not yet a claimedEventId. */
export const isRawEventId = (id: string) => id.includes(':');
/** The form a v3 claim holds. */
export const claimedForm = (id: string) => (isRawEventId(id) ? claimedEventId(id) : id);
/** A raw `to` event id: `to:<activityId>` of a post by `actor`. */
export const isAddressedEventId = (id: string, actor: string) => id.startsWith(TO_PREFIX) && parseActivityId(id.slice(TO_PREFIX.length))?.actor === actor;

/** A v2 group as its `g#` item holds it (HEAD's parseGroup reads the common fields). */
export interface V2Group {
  readonly state: GroupState;
  /** The posts a `to` event may come from and still count (v2's hide removed them). */
  readonly sources: ReadonlySet<string>;
}

/** An event one claim holds, classified. */
export interface ClaimedEvent {
  readonly actor: string;
  /** As stored: raw, or already hashed (then its kind is the group's other kind, its ticks unknown). */
  readonly id: string;
  readonly kind: NotificationKind;
  readonly live: boolean;
  readonly ticks: bigint;
}

/** The kind of a v2 group's events that are not `to` (one kind per group: see the file comment). */
export function otherKindOf(group: GroupState, recipient: string, otherRawIds: readonly string[]): NotificationKind {
  if (group.verb === 'follow') return group.object === recipient ? 'follow' : 'reaction';
  if (group.verb === 'mention') return otherRawIds.length === 0 || otherRawIds.includes(`mention:${group.object}`) ? 'mention' : 'reaction';
  return kindOfVerb(group.verb);
}

/** When the event happened, from its id (actor ids may hold `:`, so read from the right); undefined if unreadable. */
export function ticksOfEventId(id: string, kind: NotificationKind): bigint | undefined {
  if (kind === 'to' || kind === 'mention') {
    const activity = parseActivityId(id.slice(id.indexOf(':') + 1));
    return activity && ticksOfRangeKey(activity.rk);
  }
  const parts = id.split(':');
  const ticks = parts[parts.length - (kind === 'comment' ? 2 : 1)];
  return ticks !== undefined && /^\d{1,19}$/.test(ticks) ? BigInt(ticks) : undefined;
}

/** Every event the group's claims hold, and the group's kind other than `to`. */
export function classify(
  group: V2Group,
  recipient: string,
  claims: readonly { actor: string; events: readonly string[] }[],
): { other: NotificationKind; events: ClaimedEvent[] } {
  const isTo = (id: string, actor: string) => isRawEventId(id) && isAddressedEventId(id, actor);
  const otherRaw = claims.flatMap((c) => c.events.filter((id) => isRawEventId(id) && !isTo(id, c.actor)));
  const other = otherKindOf(group.state, recipient, otherRaw);
  const events = claims.flatMap((c) =>
    c.events.map((id): ClaimedEvent => {
      const kind = isTo(id, c.actor) ? 'to' : other;
      const ticks = isRawEventId(id) ? ticksOfEventId(id, kind) : undefined;
      return { actor: c.actor, id, kind, live: kind !== 'to' || group.sources.has(id.slice(TO_PREFIX.length)), ticks: ticks ?? group.state.updatedTicks };
    }),
  );
  return { other, events };
}

/** The group `events` (at least one) make at `gid`, as HEAD folds them into no group; seen/read are `base`'s. */
export function rebuilt(base: GroupState, gid: string, kind: NotificationKind, events: readonly ClaimedEvent[], version: number): GroupState {
  const folded = foldEvents(
    undefined,
    gid,
    events.map((e) => ({ kind, verb: base.verb, object: base.object, actor: e.actor, id: e.id, ticks: e.ticks })),
    new Set(events.map((e) => e.actor)),
  ).next;
  return { ...folded, seen: base.seen, read: base.read, version };
}

/** A `to` group HEAD made before the pass (`existing`) with the part the pass moves there; `actorCount` counted by the caller from the claims. */
export function merged(existing: GroupState, part: GroupState, actorCount: number): GroupState {
  const newer = part.updatedTicks >= existing.updatedTicks;
  return {
    ...existing,
    actors: [...new Set(newer ? [...part.actors, ...existing.actors] : [...existing.actors, ...part.actors])].slice(0, MAX_GROUP_ACTORS),
    actorCount,
    activityCount: existing.activityCount + part.activityCount,
    updatedTicks: newer ? part.updatedTicks : existing.updatedTicks,
    seen: existing.seen && part.seen,
    read: existing.read && part.read,
    version: existing.version + 1,
  };
}
