/**
 * A notify job's core: fold events into the recipient's groups, exactly once (batch.ts runs a lane
 * batch's jobs with their first reads shared). Per group (and source activity): read the group, the
 * actors' claims and the head (strongly consistent), drop the events a claim already holds (a
 * redelivery), fold the rest, and write it all in one transaction conditioned on what was read. A
 * batch's first writes start from its shared read and share transactions (applyFirstWrites); a
 * group whose shared transaction did not commit is applied on its own (applyToGroup). A lost race
 * re-reads and retries (bounded; then the job fails and SQS redelivers it). An event about an
 * activity deleted meanwhile is dropped by the transaction's check on the original, so nothing
 * lands behind the purge that hides it.
 *
 * What one sender can do to a recipient is bounded: a muted or blocked sender notifies no one who
 * muted or blocked them; a sender the recipient does not follow (a stranger) starts at most
 * NOTIFY_STRANGER_LIMIT groups per UTC day — a count kept per (recipient, day, sender) and raised
 * in the transaction that creates the group, so it costs nothing when a group already exists — and
 * one actor's events count at most MAX_CLAIM_EVENTS times in a group. Past a bound the events are
 * dropped, not failed: the sender's post has succeeded, and a retry would change nothing.
 */
import { parseActivityId } from '../../model/activity-id.js';
import { claimedEventId, dayOf, foldEvents, groupIdOf, MAX_CLAIM_EVENTS, type NotificationEvent, staleHeadAttributes } from '../../model/notification.js';
import { logger } from '../../platform/logger.js';
import { AGAIN, RETRY, retrying } from '../../platform/retry.js';
import type { Item } from '../../platform/dynamo/query.js';
import {
  type Claim,
  type GroupChange,
  type GroupRead,
  groupReadFrom,
  readGroupAndClaims,
  writeGroupChange,
  writeGroupChanges,
} from '../../stores/notification-store.js';
import { expiresAtOf, notificationPolicy, quotaExpiresAtOf, windowStart } from './notification-policy.js';

/** These events, each once (a job delivered twice in one batch names its events twice). */
const distinct = (events: readonly NotificationEvent[]) => [...new Map(events.map((e) => [e.id, e])).values()];

/** The actors of these events, each once. */
export const actorsOf = (events: readonly NotificationEvent[]) => [...new Set(events.map((e) => e.actor))];

/** The events still to apply: not in their actor's claim yet, and at most what the claim has room for. */
function freshEvents(events: readonly NotificationEvent[], claims: ReadonlyMap<string, Claim>): NotificationEvent[] {
  const room = new Map<string, number>();
  return events.filter((e) => {
    const claim = claims.get(e.actor);
    if (claim?.events.has(claimedEventId(e.id))) return false;
    const left = room.get(e.actor) ?? MAX_CLAIM_EVENTS - (claim?.events.size ?? 0);
    room.set(e.actor, left - 1);
    return left > 0;
  });
}

/** The events of a fold by group (and source activity), dropping those older than the age window (no page or count would show them). */
export function byGroup(events: readonly NotificationEvent[], now: number): Map<string, NotificationEvent[]> {
  const firstDay = windowStart(now, notificationPolicy().ttlMs).day;
  const groups = new Map<string, NotificationEvent[]>();
  for (const e of events.filter((x) => dayOf(x.ticks) >= firstDay)) {
    const key = `${groupIdOf(e.verb, e.object, dayOf(e.ticks), e.kind)}\n${e.source ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return groups;
}

/** The group id of a byGroup key. */
export const gidOfKey = (key: string) => key.split('\n')[0]!;

/** Who may start a group in spite of not being followed, and how many per day. */
export interface Strangers {
  readonly limit: number;
  readonly isStranger: (actor: string) => boolean;
}

/** One attempt's change: from a strongly consistent read of the group, its actors' claims and the head. */
interface Attempt {
  readonly change: GroupChange;
  /** The change creates the group (the count retention may be due). */
  readonly creates: boolean;
}

/** The change that applies `events` to the group as `read` holds it; undefined when none is left to apply (all applied before, or their claims are full). */
function attemptFrom(
  recipient: string,
  gid: string,
  events: readonly NotificationEvent[],
  strangers: Strangers | undefined,
  read: GroupRead,
): Attempt | undefined {
  const policy = notificationPolicy();
  const { group, claims, head } = read;
  const fresh = freshEvents(events, claims);
  if (fresh.length === 0) return undefined;
  const freshActors = actorsOf(fresh);
  // Without the group, every actor is new to it (a claim may outlive a group the retention removed).
  const newActors = new Set(group ? freshActors.filter((a) => !claims.has(a)) : freshActors);
  const { next, delta } = foldEvents(group, gid, fresh, newActors);
  // A new group is started by each of its actors; the strangers among them spend one of the day's starts.
  const starting = group || !strangers ? [] : freshActors.filter(strangers.isStranger);
  const source = events[0]!.source;
  const liveOriginal = source === undefined ? undefined : parseActivityId(source);
  const change: GroupChange = {
    recipient,
    previous: group,
    next,
    delta,
    claims: freshActors.map((actor) => ({
      actor,
      readSize: claims.get(actor)?.events.size,
      add: fresh.filter((e) => e.actor === actor).map((e) => claimedEventId(e.id)),
    })),
    liveOriginal: liveOriginal && { author: liveOriginal.actor, rk: liveOriginal.rk },
    ...(starting.length ? { strangers: { actors: starting, limit: strangers!.limit, expiresAt: quotaExpiresAtOf(next.day) } } : {}),
    expiresAt: expiresAtOf(next.day, policy.ttlMs),
    staleHead: staleHeadAttributes(head, windowStart(Date.now(), policy.ttlMs).day),
  };
  return { change, creates: group === undefined };
}

/** One group's first write in a batch: its events, and the read the batch made for it before any write. */
export interface FirstWrite {
  readonly recipient: string;
  readonly gid: string;
  readonly events: readonly NotificationEvent[];
  readonly strangers: Strangers | undefined;
}

/**
 * Several groups' first writes, each from `read` (a strongly consistent read holding every group's
 * groupReadKeys(…, withHead), made before any write of the batch), in as few transactions as they
 * fit (writeGroupChanges). Each answer: whether the write created its group — or undefined when its
 * transaction did not commit: then applyToGroup, from a fresh read, decides as it always did.
 */
export async function applyFirstWrites(writes: readonly FirstWrite[], read: readonly Item[]): Promise<(boolean | undefined)[]> {
  const attempts = writes.map((w) => {
    const events = distinct(w.events);
    return attemptFrom(w.recipient, w.gid, events, w.strangers, groupReadFrom(read, w.recipient, w.gid, actorsOf(events)));
  });
  const sent = attempts.flatMap((a, i) => (a ? [{ i, a }] : []));
  const { written, errors } = await writeGroupChanges(sent.map(({ a }) => a.change));
  for (const error of errors) logger.warn('a shared notification transaction failed: its groups are applied one by one', { error: error as Error });
  const answers: (boolean | undefined)[] = attempts.map(() => false); // nothing to apply: applied before
  sent.forEach(({ i, a }, k) => (answers[i] = written[k] ? a.creates : undefined));
  return answers;
}

/** Applies one group's events exactly once, from a fresh read; returns whether it created the group (the count retention may be due). */
export async function applyToGroup(recipient: string, gid: string, events: readonly NotificationEvent[], strangers: Strangers | undefined): Promise<boolean> {
  let unique = distinct(events);
  return retrying(`notify ${recipient} ${gid}`, RETRY.job, async () => {
    // Within one attempt: strangers over their limit leave the batch and the rest is written at once
    // (not a lost race: no back-off); each pass drops at least one actor, so it ends.
    for (;;) {
      const attempt = attemptFrom(recipient, gid, unique, strangers, await readGroupAndClaims(recipient, gid, actorsOf(unique), { withHead: true }));
      if (!attempt) return false; // every event was applied before (a redelivery), or its actor's claim is full
      const outcome = await writeGroupChange(attempt.change);
      if (outcome === 'done') return attempt.creates;
      if (outcome === 'source_gone') {
        logger.info('notification dropped: its activity was deleted', { recipient, gid });
        return false;
      }
      if (typeof outcome === 'object') {
        // Those strangers started their day's limit of groups here already: their events go, the rest are retried.
        logger.info('notification dropped: a stranger reached NOTIFY_STRANGER_LIMIT', { recipient, gid, dropped: outcome.overLimit.length });
        const over = new Set(outcome.overLimit);
        unique = unique.filter((e) => !over.has(e.actor));
        if (unique.length === 0) return false;
        continue;
      }
      return AGAIN; // a concurrent job changed the group or a claim: re-read (past the retries, SQS redelivers)
    }
  });
}
