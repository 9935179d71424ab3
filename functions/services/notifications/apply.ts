/**
 * The notify job: fold events into the recipient's groups, exactly once. Per group (and source
 * activity): read the group and the actors' claims, drop the events a claim already holds (a
 * redelivery), fold the rest, and write it all in one transaction conditioned on what was read. A
 * lost race re-reads and retries (bounded; then the job fails and SQS redelivers it). An event
 * about an activity deleted meanwhile is dropped by the transaction's check on the original, so
 * nothing lands behind the purge that hides it.
 */
import { parseActivityId } from '../../model/activity-id.js';
import { dayOf, foldEvents, groupIdOf, type NotificationEvent, staleHeadAttributes } from '../../model/notification.js';
import { logger } from '../../platform/logger.js';
import { backoff } from '../../platform/pool.js';
import { readGroupAndClaims, readHeadItem, writeGroupChange } from '../../stores/notification-store.js';
import { expiresAtOf, notificationPolicy, windowStart } from './policy.js';
import { silencedFor } from '../controls-state.js';
import { trimIfDue } from './retention.js';

/** Conflicts are expected when many jobs fold into one group at once: retry with jitter, then let SQS redeliver. */
const MAX_ATTEMPTS = 20;

export async function applyNotifications(recipient: string, events: readonly NotificationEvent[]): Promise<void> {
  // A muted or blocked actor notifies no one who muted or blocked them.
  const silenced = await silencedFor(recipient, events.map((e) => e.actor));
  // An event older than the age window would land in a group no page or count shows: skip it.
  const firstDay = windowStart(Date.now(), notificationPolicy().ttlMs).day;
  const batches = new Map<string, NotificationEvent[]>();
  for (const e of events.filter((x) => !silenced.has(x.actor) && dayOf(x.ticks) >= firstDay)) {
    const key = `${groupIdOf(e.verb, e.object, dayOf(e.ticks))}\n${e.source ?? ''}`;
    batches.set(key, [...(batches.get(key) ?? []), e]);
  }
  let grew = false;
  for (const [key, batch] of batches) grew = (await applyToGroup(recipient, key.split('\n')[0]!, batch)) || grew;
  if (grew) await trimIfDue(recipient);
}

/** Returns whether a new group was created (the count retention may be due). */
async function applyToGroup(recipient: string, gid: string, events: readonly NotificationEvent[]): Promise<boolean> {
  const policy = notificationPolicy();
  const unique = [...new Map(events.map((e) => [e.id, e])).values()];
  const actors = [...new Set(unique.map((e) => e.actor))];
  const source = unique[0]!.source;
  const liveOriginal = source === undefined ? undefined : parseActivityId(source);
  for (let attempt = 1; ; attempt++) {
    const [{ group, claims }, head] = await Promise.all([readGroupAndClaims(recipient, gid, actors), readHeadItem(recipient, true)]);
    const fresh = unique.filter((e) => !claims.get(e.actor)?.events.has(e.id));
    if (fresh.length === 0) return false; // every event was applied before: a redelivery
    const freshActors = [...new Set(fresh.map((e) => e.actor))];
    // Without the group, every actor is new to it (a claim may outlive a group the retention removed).
    const newActors = new Set(group ? freshActors.filter((a) => !claims.has(a)) : freshActors);
    const { next, delta } = foldEvents(group, gid, fresh, newActors);
    const outcome = await writeGroupChange({
      recipient,
      previous: group,
      next,
      delta,
      claims: freshActors.map((actor) => ({
        actor,
        readSize: claims.get(actor)?.events.size,
        add: fresh.filter((e) => e.actor === actor).map((e) => e.id),
      })),
      liveOriginal: liveOriginal && { author: liveOriginal.actor, rk: liveOriginal.rk },
      expiresAt: expiresAtOf(next.day, policy.ttlMs),
      staleHead: staleHeadAttributes(head, windowStart(Date.now(), policy.ttlMs).day),
    });
    if (outcome === 'done') return group === undefined;
    if (outcome === 'source_gone') {
      logger.info('notification dropped: its activity was deleted', { recipient, gid });
      return false;
    }
    if (attempt >= MAX_ATTEMPTS) throw new Error(`notify ${recipient} ${gid}: gave up after ${attempt} attempts`);
    await backoff(attempt, 10, 1000); // a concurrent job changed the group or a claim: re-read
  }
}
