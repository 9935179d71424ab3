/**
 * Notification groups, in the graph table under `n#<recipient>`:
 *
 *   `head`                          per UTC day: `unseen:<day>`, `unread:<day>`, `groups:<day>`
 *                                   (flat attributes: ADD creates them, where a nested map path
 *                                   would need the map first), so GET /notifications/counts is one
 *                                   GetItem, and days past the retention window stop being summed
 *   `g#<gid>`                       a group's state (the item every update reads and conditions on)
 *   `a#<gid>#<hash(actor)>`         the actor's claim in the group: `events`, hashes of the event ids
 *                                   already applied (at most MAX_CLAIM_EVENTS) — a redelivered job
 *                                   finds its id and changes nothing; the claim's existence makes
 *                                   `actorCount` count distinct actors
 *   `o#<inverted ticks>#<gid>`      the group again, keyed by its last update: pages Query these,
 *                                   newest first; an update moves it (delete + put, one transaction)
 *   `q#<day>#<hash(sender)>`        `started`: the groups a sender the recipient does not follow
 *                                   started that UTC day (NOTIFY_STRANGER_LIMIT); expires a day later
 *
 * And, under `nby#<actor>`, `<hash(recipient)>.<gid>`: the actor's index of the groups they are in
 * (written with their claim, removed with it), so erasing the actor finds every one of them.
 *
 * Group id (gid) = `<hash(object)>.<hash(verb)>.<YYYY-MM-DD>`: Stream's default aggregation
 * (verb + object + UTC day), hashed to a fixed length (an object may be an activity id of 1,400
 * characters: too long for a sort key); the group item keeps kind, verb and object. Object first,
 * so every group about one activity is one `begins_with` Query — that is how a deleted activity is
 * hidden from its notifications.
 *
 * A group has a kind — how its events came about — and never mixes kinds: `follow`, `reaction`,
 * `comment` and `mention` events are made by tickfeed from what happened, while a `to` event says
 * whatever its sender posted (verb and object are theirs). So an addressed group hashes `to` with
 * its verb: a post `{"verb":"follow","object":"alice","to":["alice"]}` lands in a `to` group of
 * its own, never in alice's follow group.
 */
import { isoFromTicks, utcDayOf } from '../platform/clock.js';
import { MAX_TICKS } from './range-key.js';
import { shortHash } from './short-hash.js';

export const notificationPartition = (recipient: string) => `n#${recipient}`;
export const notificationHeadKey = (recipient: string) => ({ pk: notificationPartition(recipient), sk: 'head' });
export const groupKey = (recipient: string, gid: string) => ({ pk: notificationPartition(recipient), sk: `g#${gid}` });
export const claimKey = (recipient: string, gid: string, actor: string) => ({ pk: notificationPartition(recipient), sk: `a#${gid}#${shortHash(actor)}` });
export const claimPrefix = (gid: string) => `a#${gid}#`;
export const CLAIM_PREFIX = 'a#';
/** The group id a claim's sort key names. */
export const gidOfClaimSk = (sk: string) => sk.slice(CLAIM_PREFIX.length, sk.lastIndexOf('#'));
/** The actor's index entry for their claim in `recipient`'s group `gid`. */
export const actorIndexKey = (actor: string, recipient: string, gid: string) => ({ pk: actorIndexPartition(actor), sk: `${shortHash(recipient)}.${gid}` });
export const actorIndexPartition = (actor: string) => `nby#${actor}`;
export const GROUP_PREFIX = 'g#';
/** Every group about `object`. */
export const objectGroupsPrefix = (object: string) => `g#${shortHash(object)}.`;

const TICKS_DIGITS = 19;
/** Order sort key: ascending = most recently updated first. */
export const orderSortKey = (ticks: bigint, gid: string) => `o#${(MAX_TICKS - ticks).toString().padStart(TICKS_DIGITS, '0')}#${gid}`;
export const orderKey = (recipient: string, ticks: bigint, gid: string) => ({ pk: notificationPartition(recipient), sk: orderSortKey(ticks, gid) });
/** Exclusive upper bound of the order keys updated at or after `ticks` (the age window). */
export const orderBoundFor = (ticks: bigint) => `o#${(MAX_TICKS - ticks).toString().padStart(TICKS_DIGITS, '0')}~`;
export const ORDER_PREFIX = 'o#';

/** UTC day of server ticks: groups aggregate by it. */
export const dayOf = utcDayOf;

/** How a notification came about (model/notification.ts file comment). */
export const NOTIFICATION_KINDS = ['follow', 'reaction', 'comment', 'mention', 'to', 'edit'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The kind of an event or group stored without one (written before kinds existed): by its verb. */
export const kindOfVerb = (verb: string): NotificationKind =>
  verb === 'follow' ? 'follow' : verb === 'comment' ? 'comment' : verb === 'mention' ? 'mention' : 'reaction';

/**
 * The kind of an event that travelled without one: queued by the release before kinds (v2), whose
 * event ids tell what made them — an addressed post's is `to:<its id>` with the post as source
 * (its verb is the poster's own, so the verb alone would put it in a follow or reaction group), a
 * mention's `mention:<activity>`, a follow's carries no source, a reaction's and a comment's do.
 */
export function kindOfEventWithoutKind(e: { verb: string; object: string; id: string; source?: string }): NotificationKind {
  if (e.source !== undefined && e.id === addressedEventId(e.source)) return 'to';
  if (e.verb === 'mention' && e.id === `mention:${e.object}`) return 'mention';
  if (e.verb === 'follow' && e.source === undefined) return 'follow';
  if (e.verb === 'comment') return 'comment';
  return 'reaction';
}

/** The group of `kind` (default: the kind the verb implies) for verb + object + day; a `to` or `edit` group never shares an id with another kind's. */
export const groupIdOf = (verb: string, object: string, day: string, kind: NotificationKind = kindOfVerb(verb)) =>
  `${shortHash(object)}.${shortHash(kind === 'to' || kind === 'edit' ? `${kind}\u0000${verb}` : verb)}.${day}`;

/** The id of the event an addressed activity (`to`) gives each of its targets. */
export const addressedEventId = (activityId: string) => `to:${activityId}`;

/** How a claim stores an event id: a hash, so a claim's size does not depend on the ids' lengths. */
export const claimedEventId = (eventId: string) => shortHash(eventId);
/**
 * Events of one actor one group counts (per UTC day: a group is one day's): past it the actor's
 * further events in the group are dropped, so no claim grows without bound (100 hashes ≈ 2.3 KB).
 */
export const MAX_CLAIM_EVENTS = 100;

/** A stranger's count of the groups they started in `recipient`'s notifications on `day`. */
export const STRANGER_QUOTA_PREFIX = 'q#';
export const strangerQuotaKey = (recipient: string, day: string, sender: string) => ({
  pk: notificationPartition(recipient),
  sk: `${STRANGER_QUOTA_PREFIX}${day}#${shortHash(sender)}`,
});

const GID = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})\.(\d{4}-\d{2}-\d{2})$/;
/** The day of a well-formed group id (its verb and object are in the group item); undefined otherwise. */
export function parseGroupId(gid: string): { day: string } | undefined {
  const m = GID.exec(gid);
  return m && !Number.isNaN(Date.parse(`${m[3]}T00:00:00Z`)) ? { day: m[3]! } : undefined;
}

/** Whether `sk` is a group's order key (`o#<inverted ticks>#<gid>`): what a notifications cursor may name. */
export function isOrderSk(sk: string): boolean {
  if (!sk.startsWith(ORDER_PREFIX)) return false;
  const tail = sk.slice(ORDER_PREFIX.length);
  const hash = tail.indexOf('#');
  return hash === TICKS_DIGITS && /^\d+$/.test(tail.slice(0, hash)) && parseGroupId(tail.slice(hash + 1)) !== undefined;
}

/**
 * One thing that happened to the recipient. `id` is unique per event (a redelivery carries the
 * same id); `source` is the activity the event came from when it must still be live for the event
 * to apply (a deleted activity's events are dropped).
 */
export interface NotificationEvent {
  readonly kind: NotificationKind;
  readonly verb: string;
  readonly object: string;
  readonly actor: string;
  readonly id: string;
  readonly ticks: bigint;
  readonly source?: string;
}

export const MAX_GROUP_ACTORS = 5;

export interface GroupState {
  readonly gid: string;
  readonly kind: NotificationKind;
  readonly verb: string;
  readonly object: string;
  readonly day: string;
  /** Newest first, at most MAX_GROUP_ACTORS. */
  readonly actors: readonly string[];
  readonly actorCount: number;
  readonly activityCount: number;
  readonly updatedTicks: bigint;
  readonly seen: boolean;
  readonly read: boolean;
  /** Bumped by every change: the optimistic-concurrency condition of the next one. */
  readonly version: number;
}

/** What a change does to the head's per-day counts. */
export interface CountDelta {
  readonly unseen: number;
  readonly unread: number;
  readonly groups: number;
}

/**
 * Fold new (already de-duplicated) events into a group. `newActors`: the events' actors that hold no
 * claim in this group yet. A group that was seen (or read) becomes unseen (unread) again, as in
 * Stream: the head's counts follow.
 */
export function foldEvents(
  state: GroupState | undefined,
  gid: string,
  events: readonly NotificationEvent[],
  newActors: ReadonlySet<string>,
): { next: GroupState; delta: CountDelta } {
  const first = events[0]!;
  const { day } = parseGroupId(gid)!;
  const byTime = [...events].sort((a, b) => (a.ticks < b.ticks ? 1 : a.ticks > b.ticks ? -1 : 0));
  const latest = byTime[0]!.ticks;
  // Jobs may arrive out of order: events older than the group's last update go behind its actors.
  const newer = !state || latest >= state.updatedTicks;
  const eventActors = byTime.map((e) => e.actor);
  const merged = newer ? [...eventActors, ...(state?.actors ?? [])] : [...state.actors, ...eventActors];
  const next: GroupState = {
    gid,
    kind: first.kind,
    verb: first.verb,
    object: first.object,
    day,
    actors: [...new Set(merged)].slice(0, MAX_GROUP_ACTORS),
    actorCount: (state?.actorCount ?? 0) + newActors.size,
    activityCount: (state?.activityCount ?? 0) + events.length,
    updatedTicks: newer ? latest : state.updatedTicks,
    seen: false,
    read: false,
    version: (state?.version ?? 0) + 1,
  };
  const delta: CountDelta = state ? { unseen: state.seen ? 1 : 0, unread: state.read ? 1 : 0, groups: 0 } : { unseen: 1, unread: 1, groups: 1 };
  return { next, delta };
}

/** Mark seen (or read, which implies seen): the new state and the head's change, or undefined if nothing changes. */
export function markGroup(state: GroupState, what: 'seen' | 'read'): { next: GroupState; delta: CountDelta } | undefined {
  const seen = true;
  const read = what === 'read' ? true : state.read;
  if (seen === state.seen && read === state.read) return undefined;
  return {
    next: { ...state, seen, read, version: state.version + 1 },
    delta: { unseen: state.seen ? 0 : -1, unread: read && !state.read ? -1 : 0, groups: 0 },
  };
}

/** The head's change when a group is removed (retention, or its activity was deleted). */
export const removalDelta = (state: GroupState): CountDelta => ({
  unseen: state.seen ? 0 : -1,
  unread: state.read ? 0 : -1,
  groups: -1,
});

/** Stored form (both the `g#` and the `o#` item carry it). */
export function groupAttributes(state: GroupState): Record<string, unknown> {
  return {
    gid: state.gid,
    kind: state.kind,
    verb: state.verb,
    object: state.object,
    day: state.day,
    actors: [...state.actors],
    actorCount: state.actorCount,
    activityCount: state.activityCount,
    updatedTicks: state.updatedTicks.toString(),
    seen: state.seen,
    read: state.read,
    version: state.version,
  };
}

export function parseGroup(item: Record<string, unknown> | undefined): GroupState | undefined {
  if (!item || typeof item.gid !== 'string') return undefined;
  const verb = String(item.verb);
  return {
    gid: item.gid,
    kind: NOTIFICATION_KINDS.find((k) => k === item.kind) ?? kindOfVerb(verb),
    verb,
    object: String(item.object),
    day: String(item.day),
    actors: (item.actors as string[] | undefined) ?? [],
    actorCount: Number(String(item.actorCount)),
    activityCount: Number(String(item.activityCount)),
    updatedTicks: BigInt(String(item.updatedTicks)),
    seen: item.seen === true,
    read: item.read === true,
    version: Number(String(item.version)),
  };
}

/** The head's counts summed over the days still inside the retention window. */
export interface NotificationCounts {
  unseen: number;
  unread: number;
  groups: number;
}

const COUNTERS = ['unseen', 'unread', 'groups'] as const;
export type HeadCounter = (typeof COUNTERS)[number];
export const headAttribute = (counter: HeadCounter, day: string) => `${counter}:${day}`;

export function countsOfHead(item: Record<string, unknown> | undefined, firstDay: string): NotificationCounts {
  const counts: NotificationCounts = { unseen: 0, unread: 0, groups: 0 };
  for (const [name, value] of Object.entries(item ?? {})) {
    const [counter, day] = name.split(':') as [HeadCounter, string | undefined];
    if (day !== undefined && day >= firstDay && COUNTERS.includes(counter)) counts[counter] += Number(String(value));
  }
  return counts;
}

/** Head attributes of days that fell out of the window (removed by the next head update). */
export function staleHeadAttributes(item: Record<string, unknown> | undefined, firstDay: string): string[] {
  return Object.keys(item ?? {}).filter((name) => {
    const [counter, day] = name.split(':') as [HeadCounter, string | undefined];
    return day !== undefined && day < firstDay && COUNTERS.includes(counter);
  });
}

/** The wire shape. */
export interface NotificationGroup {
  id: string;
  kind: NotificationKind;
  verb: string;
  object: string;
  actorCount: number;
  actors: string[];
  activityCount: number;
  updatedAt: string;
  seen: boolean;
  read: boolean;
}

export const toNotificationGroup = (g: GroupState): NotificationGroup => ({
  id: g.gid,
  kind: g.kind,
  verb: g.verb,
  object: g.object,
  actorCount: g.actorCount,
  actors: [...g.actors],
  activityCount: g.activityCount,
  updatedAt: isoFromTicks(g.updatedTicks),
  seen: g.seen,
  read: g.read,
});
