/**
 * Posting, reading and deleting an activity. The original goes to the author's timeline (what they
 * own); the author's own home-feed copy is written at once so they see the post in the response's
 * wake; the timeline's stream INSERT fans it out (services/fanout/).
 *
 * An activity's tags (services/tags/) are checked here, before any write, and stored with the
 * original; the stream INSERT starts each tag's fan-out (its feed entry and its followers' copies).
 *
 * Order comes from the server: the range key is MAX − this server's ticks at the write. A client's
 * `time` is the activity's own time (rollups count it in its minute) and never positions it; one
 * more than FUTURE_TOLERANCE_MS ahead of the server's clock is refused.
 */
import { setting } from '../../lib/defs/config.js';
import { type Activity, type ActivityInput, toActivity } from '../model/activity.js';
import { activityIdOf, parseActivityId } from '../model/activity-id.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../model/domain-errors.js';
import { newDiscriminator } from '../model/range-key.js';
import { isVisibleOriginal, TOMBSTONE_SECONDS, type TimelineItem, timelineItem } from '../model/timeline-item.js';
import { isoFromTicks, nowTicks, ticksFromIso } from '../platform/clock.js';
import { logger } from '../platform/logger.js';
import { AGAIN, RETRY, retrying } from '../platform/retry.js';
import { getOriginal, markedOriginal, markOriginalDeleted, putOriginal, putOriginalWithMarker, releaseForeignId } from '../stores/feed-store.js';
import { closeCounter } from '../stores/social-store.js';
import { postingActor } from './access.js';
import { assertNotHiddenFrom } from './controls-state.js';
import { removeCopies, writeCopies } from './home-feed-copies.js';
import { expiresAtFor } from './retention/bounds.js';
import { timelinePolicy } from './retention/retention-policy.js';
import { tagsOfPost } from './tags/post-tags.js';
import { removeTagEntries } from './tags/tag-feed.js';

/** How far ahead of the server's clock a client's `time` may be. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

const protectedVerbsOf = () => setting('PROTECTED_VERBS');
const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface PostResult {
  /** False when the foreignId named an existing activity (nothing was written). */
  readonly created: boolean;
  readonly activity: Activity;
}

/**
 * Post as the caller, or — with `admin` (the tickfeed/admin scope) — as `input.actor`. Without
 * `admin`, naming an actor or posting a PROTECTED_VERBS verb is refused (403) before any write.
 */
export async function postActivity(caller: string, admin: boolean, input: ActivityInput): Promise<PostResult> {
  const actor = postingActor(caller, admin, input, protectedVerbsOf());
  const ticks = nowTicks();
  if (input.time !== undefined && ticksFromIso(input.time)! > ticks + BigInt(FUTURE_TOLERANCE_MS) * 1_000_000n) {
    throw new ValidationError('time is in the future.', [
      { field: 'body.time', message: `must not be more than ${FUTURE_TOLERANCE_MS / 60_000} minutes ahead of the server's clock` },
    ]);
  }
  const tags = tagsOfPost(input); // 400 beyond MAX_TAGS, before anything is written
  // The activity's own time, normalized to UTC with nanoseconds (the schema checked it parses).
  const time = input.time === undefined ? undefined : isoFromTicks(ticksFromIso(input.time)!);
  const item = timelineItem(actor, { ...input, time, tags }, ticks, newDiscriminator(), isoFromTicks(ticks), expiresAtFor(ticks, timelinePolicy().ttlMs));
  const result =
    item.foreignId === undefined
      ? (await putOriginal(item), { created: true, activity: toActivity(item) })
      : await postOnce(item as TimelineItem & { foreignId: string });
  if (result.created) {
    // The author sees their post at once. The fan-out job writes this copy too, so a failure here
    // delays it; answering 500 would invite a duplicate post from a client without foreignId.
    await writeCopies([{ owner: actor, source: item }]).catch((error: unknown) =>
      logger.warn('own home-feed copy failed; the fan-out job writes it', { error: error as Error, actor }),
    );
  }
  return result;
}

/**
 * With foreignId: the original and its marker in one transaction, or the original the marker
 * names. Concurrent posts with one foreignId: the loser retries until it can read the winner's
 * marker (briefly: past that, a 503 asks the client to retry).
 */
async function postOnce(item: TimelineItem & { foreignId: string }): Promise<PostResult> {
  return retrying('post with a foreignId in flight', RETRY.marker, async () => {
    if ((await putOriginalWithMarker(item)) === 'created') return { created: true, activity: toActivity(item) };
    // The marker exists, or a concurrent post holds it (its transaction is in flight).
    const rk = await markedOriginal(item.actor, item.foreignId);
    if (rk !== undefined) {
      const original = await getOriginal(item.actor, rk);
      if (!isVisibleOriginal(original, nowSeconds())) {
        throw new ConflictError('The activity with this foreignId was deleted or has expired.');
      }
      return { created: false, activity: toActivity(original!) };
    }
    return AGAIN;
  });
}

function keyOf(id: string) {
  const key = parseActivityId(id);
  if (!key) throw new NotFoundError('No such activity.'); // a malformed id names nothing
  return key;
}

/** The activity as `viewer` may see it: 404 also when its author blocked the viewer. */
export async function getActivityFor(viewer: string, id: string): Promise<Activity> {
  const { actor } = keyOf(id);
  const [activity] = await Promise.all([getActivity(id), assertNotHiddenFrom(actor, viewer)]);
  return activity;
}

export async function getActivity(id: string): Promise<Activity> {
  const { actor, rk } = keyOf(id);
  const item = await getOriginal(actor, rk);
  if (!isVisibleOriginal(item, nowSeconds())) throw new NotFoundError('No such activity.');
  return toActivity(item!);
}

/**
 * Mark the original deleted; its stream MODIFY starts the retract job that deletes every copy.
 * The author's timeline and home feed hide it at once; followers' feeds as the retract job runs.
 * Only the actor may delete: 403 for someone else's activity the caller may see, 404 for an absent
 * one — and for one whose author blocked the caller, as every other route answers them.
 */
export async function deleteActivity(caller: string, id: string): Promise<void> {
  const { actor, rk } = keyOf(id);
  if (actor !== caller) {
    await getActivityFor(caller, id); // 404 if there is nothing to protect, or nothing they may see
    throw new ForbiddenError('Only the actor may delete an activity.');
  }
  const marked = await markOriginalDeleted(actor, rk, nowSeconds());
  if (!marked) throw new NotFoundError('No such activity.');
  // Close the counter: a reaction or comment racing the delete then fails instead of landing after
  // the purge has looked. The purge job closes it again before it reads (services/deleted-posts/purge.ts),
  // so a crash right here loses nothing; closing after the mark never closes a live activity.
  await closeCounter(activityIdOf(actor, rk), nowSeconds() + TOMBSTONE_SECONDS);
  if (typeof marked.foreignId === 'string') await releaseForeignId(actor, marked.foreignId, rk);
  // The author's own copy goes now, so their home feed hides it at once; the retract job deletes
  // every follower's (and this one again, harmlessly). Its tags' feeds drop it now too, as its
  // timeline does; the tag retract jobs take the tag followers' copies.
  await Promise.all([removeCopies([{ owner: actor, rk }]), removeTagEntries(rk, marked.tags)]);
}
