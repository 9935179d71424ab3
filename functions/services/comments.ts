/**
 * Comments: POST/GET/DELETE /activities/{id}/comments. A comment is stored and counted in one
 * transaction (stores/social-store.ts); the counter's stream record notifies the activity's
 * author. Either the comment's author or the activity's author may delete it.
 */
import { type Comment, commentItem, parseCommentId, toComment } from '../model/comment.js';
import { ForbiddenError, NotFoundError } from '../model/domain-errors.js';
import { COMMENT_KIND } from '../model/reaction.js';
import { newDiscriminator, rangeKeyOf, parseRangeKey } from '../model/range-key.js';
import { isoFromTicks, nowTicks } from '../platform/clock.js';
import { addComment, commentPage, getComment, removeComment } from '../stores/social-store.js';
import { afterCursor, type ListPage, listPageOf, type ListRequest } from './list-page.js';
import { getActivity, getActivityFor } from './posting.js';
import { refuseIfBlocked, untilSettled } from './reactions.js';

export async function postComment(caller: string, activityId: string, text: string): Promise<Comment> {
  const { actor: author } = await getActivity(activityId); // 404 unless it is there to comment on
  await refuseIfBlocked(author, caller);
  const ticks = nowTicks();
  const item = commentItem(activityId, author, rangeKeyOf(ticks, newDiscriminator()), caller, text, isoFromTicks(ticks));
  await untilSettled(() => addComment(item, { actor: caller, kind: COMMENT_KIND, ticks, commentId: item.rk.toString() }));
  return toComment(item);
}

/** One page of an activity's comments, newest first (list-page.ts); the cursor is the last comment's range key. */
export async function listComments(viewer: string, activityId: string, req: ListRequest): Promise<ListPage<Comment>> {
  const after = afterCursor(req.cursor, (k) => parseRangeKey(k) !== undefined);
  const [, page] = await Promise.all([
    getActivityFor(viewer, activityId),
    commentPage(activityId, req.limit, after === undefined ? undefined : parseRangeKey(after)),
  ]);
  return listPageOf(page, toComment);
}

export async function deleteComment(caller: string, activityId: string, commentId: string): Promise<void> {
  const { actor: activityAuthor } = await getActivity(activityId);
  const rk = parseCommentId(commentId);
  const comment = rk === undefined ? undefined : await getComment(activityId, rk);
  if (!comment || rk === undefined) throw new NotFoundError('No such comment.');
  if (comment.actor !== caller && activityAuthor !== caller) {
    throw new ForbiddenError("Only the comment's author or the activity's author may delete a comment.");
  }
  await untilSettled(() => removeComment(activityId, rk, COMMENT_KIND, String(comment.actor)));
}
