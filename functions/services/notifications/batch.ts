/**
 * A notify lane batch, paid per batch where it can be: each recipient's events (a fold, fold.ts)
 * are applied exactly once group by group (fold-events.ts), but what every fold starts from is read
 * together, strongly consistent, before any write — every recipient's audience (their mutes and
 * blocks of the actors, whom they follow, their erase mark) and, for each recipient's first fold,
 * its groups, claims and head: one BatchGet per 100 keys instead of two per job. The writes that
 * start from that read — each group's first — share transactions, as many as fit in one
 * (fold-events.ts applyFirstWrites): a transaction costs DynamoDB mostly per call, not per item. Once
 * every fold settled, the heads of the recipients that got a new group are read in one BatchGet
 * (the count retention, retention.ts) and who is connected is read once (the count pushes). A job
 * costs a share of a transaction and of four reads, where it cost five calls of its own.
 *
 * A recipient's later folds (past MAX_JOB_EVENTS events in one batch) run after its first and read
 * their groups afresh (the first fold's write changed them); their audience — mutes, blocks, follows —
 * is the batch's read, as a job's was its own read at its start. Within a fold only a group's first
 * write starts from the shared read; a shared transaction that did not commit wrote nothing, and its
 * groups are applied one by one from a fresh read. A fold fails — and its messages come back — if
 * its apply, its trim or the read of who is connected failed; applying again changes nothing, and pushes the same
 * counts again. A push to one user that fails is logged and skipped, as every push is.
 */
import { logger } from '../../platform/logger.js';
import { forEachLimit } from '../../platform/pool.js';
import type { Item } from '../../platform/dynamo/query.js';
import { readGraphKeys } from '../../stores/follow-store.js';
import { groupReadKeys, readHeadItems } from '../../stores/notification-store.js';
import type { NotificationEvent } from '../../model/notification.js';
import { audienceFrom, audienceKeys } from '../controls-state.js';
import { pushNotificationCountsTo } from '../realtime/push.js';
import type { JobRunner } from '../jobs/define.js';
import { actorsOf, applyFirstWrites, applyToGroup, byGroup, type FirstWrite, gidOfKey, type Strangers } from './fold-events.js';
import { eventsOfJob, type NotifyJob } from './events.js';
import { foldNotifyJobs } from './fold.js';
import { notifyJob } from './notify-job.js';
import { notifyStrangerLimit } from './notification-policy.js';
import { notificationCounts } from './read-notifications.js';
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

/** A fold's groups with the events its recipient hears (the silenced actors' dropped), and who may start a group unfollowed. */
interface Heard {
  readonly strangers: Strangers | undefined;
  readonly groups: { readonly key: string; readonly gid: string; readonly events: NotificationEvent[] }[];
}

function heardOf(plan: Plan, shared: readonly Item[], limit: number | undefined): Heard {
  const { silenced, followed } = audienceFrom(shared, plan.recipient, plan.actors, limit !== undefined);
  const strangers: Strangers | undefined = limit === undefined ? undefined : { limit, isStranger: (actor) => !followed.has(actor) };
  const groups = [...plan.groups].map(([key, events]) => ({ key, gid: gidOfKey(key), events: events.filter((e) => !silenced.has(e.actor)) }));
  return { strangers, groups: groups.filter((g) => g.events.length > 0) };
}

/**
 * The groups whose write starts from the shared read, which holds each group as it was before this
 * batch: in each recipient's first fold, each group's first write (a group named again, for another
 * source, waits for it and reads afresh). By plan, then group key.
 */
function firstWritesOf(plans: readonly Plan[], heard: readonly Heard[]): { plan: number; key: string; write: FirstWrite }[] {
  return plans.flatMap((plan, p) => {
    if (!plan.first) return [];
    const started = new Set<string>();
    return heard[p]!.groups.flatMap((g) => {
      if (started.has(g.gid)) return [];
      started.add(g.gid);
      return [{ plan: p, key: g.key, write: { recipient: plan.recipient, gid: g.gid, events: g.events, strangers: heard[p]!.strangers } }];
    });
  });
}

/** A fold's groups in order: a first write the batch committed counts as applied; any other group is applied from a fresh read. */
async function applyFold(plan: Plan, heard: Heard, firsts: ReadonlyMap<string, boolean | undefined>): Promise<Applied> {
  let grew = false;
  for (const g of heard.groups) {
    const first = firsts.get(g.key);
    if (first ?? (await applyToGroup(plan.recipient, g.gid, g.events, heard.strangers))) grew = true;
  }
  return { grew, notified: heard.groups.length > 0 };
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
  // The shared read, then every first write in as few transactions as fit (fold-events.ts applyFirstWrites).
  const prepared = readGraphKeys(sharedKeys(plans, limit !== undefined)).then(async (shared) => {
    const heard = plans.map((plan) => heardOf(plan, shared, limit));
    const firsts = firstWritesOf(plans, heard);
    const created = await applyFirstWrites(
      firsts.map((f) => f.write),
      shared,
    );
    const byPlan = plans.map(() => new Map<string, boolean | undefined>());
    firsts.forEach((f, i) => byPlan[f.plan]!.set(f.key, created[i]));
    return { heard, byPlan };
  });
  const last = new Map<string, Promise<unknown>>();
  const runs = plans.map((plan, p) => {
    const before = last.get(plan.recipient) ?? Promise.resolve();
    const run = before
      .catch(() => undefined)
      .then(async () => {
        const { heard, byPlan } = await prepared;
        return applyFold(plan, heard[p]!, byPlan[p]!);
      });
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

/** A lane batch's notify jobs: folded per recipient (fold.ts), the folds applied as one batch. */
function notifyBatch(jobs: readonly NotifyJob[]): Promise<void>[] {
  const folds = foldNotifyJobs(jobs);
  const applied = applyNotificationBatch(
    folds.map((f) => ({ recipient: f.recipient, events: eventsOfJob({ kind: 'notify', recipient: f.recipient, events: f.events }) })),
  );
  const done: Promise<void>[] = [];
  folds.forEach((fold, f) => {
    for (const i of fold.members) done[i] = applied[f]!;
  });
  return done;
}

export const notifyRunner: JobRunner<typeof notifyJob> = {
  def: notifyJob,
  run: (job) => applyNotifications(job.recipient, eventsOfJob(job)),
  runBatch: notifyBatch,
};
