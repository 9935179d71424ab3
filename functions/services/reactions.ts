/**
 * Reactions: PUT/DELETE /activities/{id}/reactions/{kind}, and the `reactions` summary an activity
 * read carries (`counts` for everyone, `own` for the caller). One transaction per change
 * (stores/social-store.ts); the counter's stream record then notifies the activity's author.
 */
import { setting } from '../../lib/defs/config.js';
import type { Activity } from '../model/activity.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../model/domain-errors.js';
import { activityOfCounterItem, activityOfReactionItem, countsOf, ownKindsOf, type ReactionSummary } from '../model/reaction.js';
import { nowTicks } from '../platform/clock.js';
import { AGAIN, RETRY, retrying } from '../platform/retry.js';
import { addReaction, getCounters, getReactionsOf, removeReaction, type SocialOutcome } from '../stores/social-store.js';
import { hasBlocked } from './controls-state.js';
import { getActivity, getActivityFor } from './posting.js';

/** A user the author blocked may not react to or comment on their activities. */
export async function refuseIfBlocked(author: string, caller: string): Promise<void> {
  if (author !== caller && (await hasBlocked(author, caller))) throw new ForbiddenError("The activity's author has blocked you.");
}

/**
 * Run a social transaction until it is not a conflict (the one retry loop, many callers on one
 * counter's patience: past it, a 503); `closed` reads as a deleted activity.
 */
export function untilSettled(run: () => Promise<SocialOutcome>, what = 'reaction or comment'): Promise<'done' | 'noop'> {
  return retrying(what, RETRY.counter, async () => {
    const outcome = await run();
    if (outcome === 'closed') throw new NotFoundError('No such activity.');
    return outcome === 'conflict' ? AGAIN : outcome;
  });
}

/** REACTION_KINDS, read once: the kinds a user may add (each is a counter attribute on the activity, so they are few). */
const reactionKinds = () => setting('REACTION_KINDS');

/** 400 for a kind the deployment does not allow, before anything is read. Removing one is always allowed (it may predate the list). */
export function assertReactionKind(kind: string): void {
  if (!reactionKinds().has(kind)) {
    throw new ValidationError(`"${kind}" is not one of this deployment's reaction kinds (REACTION_KINDS).`, [
      { field: 'path.kind', message: `must be one of: ${[...reactionKinds()].join(', ')}` },
    ]);
  }
}

export async function react(caller: string, activityId: string, kind: string): Promise<void> {
  assertReactionKind(kind);
  const { actor: author } = await getActivity(activityId); // 404 unless it is there to react to
  await refuseIfBlocked(author, caller);
  await untilSettled(() => addReaction(activityId, author, { actor: caller, kind, ticks: nowTicks() }));
}

export async function unreact(caller: string, activityId: string, kind: string): Promise<void> {
  await getActivity(activityId);
  await untilSettled(() => removeReaction(activityId, caller, kind));
}

/** Summaries for many activities: two BatchGets (counters, the caller's reactions), in parallel. */
export async function reactionSummaries(caller: string, activityIds: readonly string[]): Promise<Map<string, ReactionSummary>> {
  const ids = [...new Set(activityIds)];
  const out = new Map<string, ReactionSummary>(ids.map((id) => [id, { counts: {}, own: [] }]));
  if (ids.length === 0) return out;
  const [counters, own] = await Promise.all([getCounters(ids), getReactionsOf(caller, ids)]);
  for (const c of counters) {
    const summary = out.get(activityOfCounterItem(c));
    if (summary) summary.counts = countsOf(c);
  }
  for (const r of own) {
    const summary = out.get(activityOfReactionItem(r));
    if (summary) summary.own = ownKindsOf(r);
  }
  return out;
}

/** Activities with their `reactions` summaries attached. */
export async function withReactions<A extends Activity>(caller: string, activities: readonly A[]): Promise<(A & { reactions: ReactionSummary })[]> {
  const summaries = await reactionSummaries(
    caller,
    activities.map((a) => a.id),
  );
  return activities.map((a) => ({ ...a, reactions: summaries.get(a.id)! }));
}

/** GET /activities/{id}: the activity (404 if not visible) with its reactions, read in parallel. */
export async function getActivityWithReactions(caller: string, activityId: string): Promise<Activity & { reactions: ReactionSummary }> {
  const [activity, summaries] = await Promise.all([getActivityFor(caller, activityId), reactionSummaries(caller, [activityId])]);
  return { ...activity, reactions: summaries.get(activityId) ?? { counts: {}, own: [] } };
}

/** A page with `reactions` on its items when asked (`?enrich=reactions`), else as it is. */
export async function enriched<P extends { items: Activity[] }>(caller: string, page: P, enrich: 'reactions' | undefined): Promise<P> {
  return enrich === 'reactions' ? { ...page, items: await withReactions(caller, page.items) } : page;
}
