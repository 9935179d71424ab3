/**
 * A notify lane batch, paid per batch where it can be: each recipient's events (a fold, jobs/fold.ts)
 * are applied exactly once group by group (apply.ts), but what every fold starts from is read
 * together, strongly consistent, before any write — every recipient's audience (their mutes and
 * blocks of the actors, whom they follow, their erase mark) and, for each recipient's first fold,
 * its groups, claims and head: one BatchGet per 100 keys instead of two per job. Once every fold
 * settled, the heads of the recipients that got a new group are read in one BatchGet (the count
 * retention, retention.ts) and who is connected is read once (the count pushes). A job costs its
 * transactions and a share of four reads, where it cost five calls of its own.
 *
 * A recipient's later folds (past MAX_JOB_EVENTS events in one batch) run after its first and read
 * their groups afresh (the first fold's write changed them); their audience — mutes, blocks, follows —
 * is the batch's read, as a job's was its own read at its start. Within a fold only a group's first
 * write starts from the shared read. A fold fails — and its messages come back — if its apply, its
 * trim or the read of who is connected failed; applying again changes nothing, and pushes the same
 * counts again. A push to one user that fails is logged and skipped, as every push is.
 */
import { logger } from '../../platform/logger.js';
import { forEachLimit } from '../../platform/pool.js';
import type { Item } from '../../platform/dynamo/query.js';
import { readGraphKeys } from '../../stores/graph-store.js';
import { groupReadKeys, readHeadItems } from '../../stores/notification-store.js';
import type { NotificationEvent } from '../../model/notification.js';
import { audienceFrom, audienceKeys } from '../controls-state.js';
import { pushNotificationCountsTo } from '../realtime/push.js';
import { applyToGroup, byGroup, gidOfKey, type Strangers } from './apply.js';
import { notifyStrangerLimit } from './policy.js';
import { notificationCounts } from './read.js';
import { trimIfDue } from './retention.js';

/** Count retentions in flight after a batch. */
const TRIM_CONCURRENCY = 4;

/** One recipient's events: a notify job, or a batch's jobs for that recipient folded. */
export interface NotifyFold {
  readonly recipient: string;
  readonly events: readonly NotificationEvent[];
}

/** A fold's events by group, and the actors it names. */
interface Plan {
  readonly recipient: string;
  readonly groups: Map<string, NotificationEvent[]>;
  readonly actors: string[];
  /** The recipient's first fold in the batch: its group reads come with the shared read. */
  readonly first: boolean;
}

const actorsOf = (events: readonly NotificationEvent[]) => [...new Set(events.map((e) => e.actor))];

function plansOf(folds: readonly NotifyFold[], now: number): Plan[] {
  const seen = new Set<string>();
  return folds.map((f) => {
    const first = !seen.has(f.recipient);
    seen.add(f.recipient);
    return { recipient: f.recipient, groups: byGroup(f.events, now), actors: actorsOf(f.events), first };
  });
}

/** The shared read: every fold's audience, and each recipient's first fold's groups with their claims and the head. */
function sharedKeys(plans: readonly Plan[], withFollows: boolean): Item[] {
  return plans.flatMap((p) => [
    ...audienceKeys(p.recipient, p.actors, withFollows),
    ...(p.first ? [...p.groups].flatMap(([key, events]) => groupReadKeys(p.recipient, gidOfKey(key), actorsOf(events), { withHead: true })) : []),
  ]);
}

/** What a fold's apply leaves for after the batch. */
interface Applied {
  /** A group was created: the count retention may be due. */
  readonly grew: boolean;
  /** Something was said to the recipient (a redelivery too): their counts are pushed. */
  readonly notified: boolean;
}

async function applyFold(plan: Plan, shared: readonly Item[], limit: number | undefined): Promise<Applied> {
  const { silenced, followed } = audienceFrom(shared, plan.recipient, plan.actors, limit !== undefined);
  const strangers: Strangers | undefined = limit === undefined ? undefined : { limit, isStranger: (actor) => !followed.has(actor) };
  let grew = false;
  let notified = false;
  // The shared read holds each group as it was before this batch: only its first write may start from it.
  const started = new Set<string>();
  for (const [key, events] of plan.groups) {
    const heard = events.filter((e) => !silenced.has(e.actor));
    if (heard.length === 0) continue;
    notified = true;
    const gid = gidOfKey(key);
    const prefetched = plan.first && !started.has(gid) ? shared : undefined;
    started.add(gid);
    if (await applyToGroup(plan.recipient, gid, heard, strangers, prefetched)) grew = true;
  }
  return { grew, notified };
}

/** The count retention of the recipients that got a group, and their counts pushed: the recipients for whom it failed. */
async function afterBatch(grew: readonly string[], notified: readonly string[]): Promise<Set<string>> {
  const failed = new Set<string>();
  if (grew.length > 0) {
    try {
      const heads = await readHeadItems(grew);
      await forEachLimit(grew, TRIM_CONCURRENCY, async (recipient) => {
        try {
          await trimIfDue(recipient, heads.get(recipient));
        } catch (error) {
          logger.warn('notification count retention failed', { recipient, error: error as Error });
          failed.add(recipient);
        }
      });
    } catch (error) {
      logger.warn('reading the notification heads failed', { error: error as Error });
      for (const r of grew) failed.add(r);
    }
  }
  try {
    await pushNotificationCountsTo(notified, notificationCounts);
  } catch (error) {
    logger.warn('notification count push failed', { error: error as Error });
    for (const r of notified) failed.add(r);
  }
  return failed;
}

/** Applies a batch's folds; `applied[i]` settles when fold i is done (its apply, its trim and its push). */
export function applyNotificationBatch(folds: readonly NotifyFold[]): Promise<void>[] {
  const limit = notifyStrangerLimit();
  const plans = plansOf(folds, Date.now());
  const shared = readGraphKeys(sharedKeys(plans, limit !== undefined));
  const last = new Map<string, Promise<unknown>>();
  const runs = plans.map((plan) => {
    const before = last.get(plan.recipient) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(async () => applyFold(plan, await shared, limit));
    last.set(plan.recipient, run);
    return run;
  });
  const finished = Promise.allSettled(runs).then((outcomes) => {
    const done = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [{ recipient: plans[i]!.recipient, ...o.value }] : []));
    return afterBatch([...new Set(done.filter((d) => d.grew).map((d) => d.recipient))], [...new Set(done.filter((d) => d.notified).map((d) => d.recipient))]);
  });
  return runs.map(async (run, i) => {
    await run;
    const recipient = plans[i]!.recipient;
    if ((await finished).has(recipient)) throw new Error(`notify ${recipient}: the count retention or the push after the batch failed`);
  });
}

/** One notify job (a batch of one). */
export async function applyNotifications(recipient: string, events: readonly NotificationEvent[]): Promise<void> {
  await applyNotificationBatch([{ recipient, events }])[0];
}
