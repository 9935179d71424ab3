/**
 * The erase phases, in order (model/erasure.ts ERASE_PHASES). Each call does one bounded step and
 * says whether the phase has more. The order matters:
 *   mark           every original marked deleted (counters closed): from here a fan-out or backfill
 *                  in flight takes its own copies back, and nothing new can attach to them
 *   followers      each follower's edge removed (counts exact), the user's posts taken out of
 *                  their feed — while the (marked) originals still say which copies can exist
 *   following      each followee's edge removed (counts), the user taken out of their follow
 *                  notifications; then each followed tag unfollowed
 *   originals      per original: its reactions, comments (and their ledger entries), the
 *                  notifications about it, the user out of `to` groups, its edit history; then it
 *                  is deleted outright
 *   feed           the user's home feed, head included
 *   ledger         the user's reactions and comments on others' activities, counts adjusted, and
 *                  the user out of those activities' notification groups
 *   notified       the user out of every notification group they are in, anyone's (their index:
 *                  past follows, deleted comments and reactions, `to` posts included)
 *   notifications  the user's own notification feed, with the index entries of its claims
 *   controls       the user's own mutes and blocks (with their mirrors); those others placed on the
 *                  user stay in force, holding only a hash of the id (their list entry shows an
 *                  erased user): what another user owns, no erase removes
 *   rest           activity-window entries, foreignId markers, profile, edge and list partitions,
 *                  the user's own ranked feeds and their seen marks (a ranking snapshot expires
 *                  within 30 minutes; shared feeds are everyone's)
 */
import { activityIdOf, parseActivityId } from '../../model/activity-id.js';
import type { ErasePhase } from '../../model/erasure.js';
import { NotFoundError } from '../../model/domain-errors.js';
import { dayOf, groupIdOf } from '../../model/notification.js';
import { rkOf, ticksOfRangeKey } from '../../model/range-key.js';
import { COMMENT_KIND } from '../../model/reaction.js';
import { type Control, isErasedTarget, kindOfControlSk, mirrorKey, otherOfControlSk } from '../../model/user-controls.js';
import { parseLedgerEntry } from '../../model/user-ledger.js';
import { allControls, deleteControlItem, keepControlOfErased } from '../../stores/controls-store.js';
import { eraseHistory } from '../edits/erase-history.js';
import { deleteForeignIdMarkers, deleteHomeFeedPage, deleteOriginal, getOriginal, originalsPage } from '../../stores/feed-store.js';
import { deleteEdgeItem, deleteOwnFollowItems, getEdge, listPage, removeEdge } from '../../stores/follow-store.js';
import { deleteNotificationPage } from '../../stores/notification-store.js';
import {
  deleteCounter,
  deleteLedgerItem,
  deleteReactionItems,
  ledgerPage,
  purgeReactionsAndComments,
  removeComment,
  removeReaction,
} from '../../stores/social-store.js';
import { deleteActivityEntriesPage } from '../../stores/stats-store.js';
import { removeFolloweePosts } from '../follow-copies/unfollow-cleanup.js';
import { hideFromNotifications } from '../notifications/hide.js';
import { forgetActor, forgetActorEverywhere } from '../notifications/forget.js';
import { deleteActivity } from '../posting.js';
import { untilSettled } from '../reactions.js';
import { unfollowTagKey } from '../tags/tag-follows.js';
import { removeTagEntries } from '../tags/tag-feed.js';
import { tagFollowsPage } from '../../stores/tag-store.js';
import { deleteOwnRankedFeeds } from '../../stores/ranked-feed-store.js';
import { AGAIN, RETRY, retrying } from '../../platform/retry.js';

/** Items per step: small enough that a step ends well inside the worker's timeout. */
const STEP = 25;

type Step = (user: string) => Promise<boolean>;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

const mark: Step = async (user) => {
  // Pages by rk from the newest; every live original of the page is marked, then the next page.
  let after: bigint | undefined;
  for (;;) {
    const page = await originalsPage(user, 100, after);
    const live = page.filter((o) => o.deletedAt === undefined);
    for (const o of live.slice(0, STEP)) await deleteActivity(user, String(o.id)).catch(ignoreNotFound);
    if (live.length > STEP) return true;
    if (page.length < 100) return false;
    after = rkOf(page.at(-1)!.rk);
  }
};

const followers: Step = async (user) => {
  const page = await listPage('followers', user, STEP);
  for (const { userId: follower } of page.items) {
    const edge = await getEdge(follower, user);
    if (edge?.state === 'active') await untilDone(() => removeEdge(follower, user, edge.order));
    if (edge) await removeFolloweePosts(follower, user, edge.followedAt);
    await deleteEdgeItem(follower, user);
  }
  return page.items.length > 0;
};

const following: Step = async (user) => {
  const page = await listPage('following', user, STEP);
  for (const { userId: followee } of page.items) {
    const edge = await getEdge(user, followee);
    if (edge?.state === 'active') await untilDone(() => removeEdge(user, followee, edge.order));
    await deleteEdgeItem(user, followee);
    await forgetActor(followee, user, { object: followee, kind: 'follow' });
  }
  if (page.items.length > 0) return true;
  // Then the tags: off their follower lists (counts exact); no cleanup, the feed phase deletes the feed.
  const tags = await tagFollowsPage(user, STEP);
  for (const { key } of tags.items) await unfollowTagKey(user, key, { cleanup: false });
  return tags.items.length > 0;
};

const originals: Step = async (user) => {
  const page = await originalsPage(user, STEP);
  for (const read of page) {
    const rk = rkOf(read.rk);
    const id = activityIdOf(user, rk);
    // Posted after the mark phase: mark it now, so a fan-out still writing it takes its copies back —
    // and read it again, marked: an edit may have landed since the page was read, and its version
    // (is there a history to erase?) and tags are final only once it is marked.
    let o = read;
    if (read.deletedAt === undefined) {
      await deleteActivity(user, id).catch(ignoreNotFound);
      o = (await getOriginal(user, rk)) ?? read;
    }
    await purgeReactionsAndComments(id);
    const post = {
      author: user,
      rk,
      verb: String(o.verb),
      object: str(o.object),
      content: str(o.content),
      to: Array.isArray(o.to) ? (o.to as string[]) : undefined,
    };
    await hideFromNotifications(post);
    const toGroup = groupIdOf(post.verb, post.object ?? id, dayOf(ticksOfRangeKey(rk)), 'to');
    for (const recipient of new Set(post.to ?? [])) await forgetActor(recipient, user, { gid: toGroup });
    await deleteCounter(id);
    await eraseHistory(id, o);
    await removeTagEntries(rk, o.tags); // DELETE removed them; a fan-out racing the mark may have written one back
    await deleteOriginal(user, rk);
  }
  return page.length > 0;
};

const feed: Step = async (user) => (await deleteHomeFeedPage(user, 100)) > 0;

const ledger: Step = async (user) => {
  const { items } = await ledgerPage(user, 'reaction', STEP);
  const comments = items.length < STEP ? (await ledgerPage(user, 'comment', STEP - items.length)).items : [];
  for (const item of [...items, ...comments]) {
    const entry = parseLedgerEntry(item);
    if (!entry) continue;
    const author = parseActivityId(entry.activityId)?.actor;
    if (entry.kind === 'reaction') {
      for (const kind of entry.kinds) await untilSettled(() => removeReaction(entry.activityId, user, kind)).catch(ignoreNotFound);
      await deleteReactionItems(entry.activityId, user);
    } else {
      await untilSettled(() => removeComment(entry.activityId, entry.rk, COMMENT_KIND, user)).catch(ignoreNotFound);
      await deleteLedgerItem({ pk: String(item.pk), sk: String(item.sk) });
    }
    if (author) await forgetActor(author, user, { object: entry.activityId });
  }
  return items.length + comments.length > 0;
};

const notified: Step = (user) => forgetActorEverywhere(user, STEP);

const notifications: Step = async (user) => (await deleteNotificationPage(user, 100)) > 0;

const mirrored: Record<string, Control> = { mutedBy: 'mute', blockedBy: 'block' };

const controls: Step = async (user) => {
  for (const item of (await allControls(user)).slice(0, STEP * 4)) {
    const sk = String(item.sk);
    const other = otherOfControlSk(sk);
    const kind = kindOfControlSk(sk);
    // Another user's mute or block of this user (its mirror names them): it stays, by hash only.
    if (Object.hasOwn(mirrored, kind)) await keepControlOfErased(mirrored[kind]!, other, user);
    // The user's own: its mirror in the other's partition goes first, then the item.
    else if ((kind === 'mute' || kind === 'block') && !isErasedTarget(other)) await deleteControlItem(mirrorKey(kind, user, other));
    await deleteControlItem({ pk: String(item.pk), sk });
  }
  return (await allControls(user)).length > 0;
};

const rest: Step = async (user) => {
  let deleted = await deleteActivityEntriesPage(user, 100);
  deleted += await deleteOwnFollowItems(user, 100);
  deleted += await deleteForeignIdMarkers(user, 100);
  deleted += await deleteOwnRankedFeeds(user, STEP);
  return deleted > 0;
};

export const phaseSteps: Record<ErasePhase, Step> = { mark, followers, following, originals, feed, ledger, notified, notifications, controls, rest };

/** A removeEdge that lost a race is retried (the one retry loop); `done`, or the edge moved on. */
async function untilDone(run: () => Promise<string>): Promise<void> {
  await retrying('erase: remove a follow edge', RETRY.step, async () => ((await run()) === 'conflict' ? AGAIN : undefined));
}

/** Already gone (deleted, or its activity is): nothing left to undo. */
function ignoreNotFound(error: unknown): void {
  if (!(error instanceof NotFoundError)) throw error;
}
