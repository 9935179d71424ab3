/**
 * Comments: feed `c#<activityId>` / rk, rk = MAX − server ticks like every post, so a Query reads
 * them newest first and pages by range key. The comment id is its rk (decimal), unique within the
 * activity; the item also names the activity's author, so either author may delete it.
 */
import { feedPartitionPrefix } from '../../lib/defs/key-prefixes.js';
import { parseRangeKey, rkOf } from './range-key.js';

export const MAX_COMMENT_CHARS = 2000;

export const commentPartition = (activityId: string) => `${feedPartitionPrefix.comments}${activityId}`;
export const commentKey = (activityId: string, rk: bigint) => ({ pk: commentPartition(activityId), rk });

export type CommentItem = {
  readonly pk: string;
  readonly rk: bigint;
  readonly activityId: string;
  /** The activity's author (who may delete it too). */
  readonly author: string;
  readonly actor: string;
  readonly text: string;
  readonly time: string;
};

export const commentItem = (activityId: string, author: string, rk: bigint, actor: string, text: string, time: string): CommentItem => ({
  pk: commentPartition(activityId),
  rk,
  activityId,
  author,
  actor,
  text,
  time,
});

/** The wire shape. */
export interface Comment {
  id: string;
  actor: string;
  text: string;
  time: string;
}

export const toComment = (item: Record<string, unknown>): Comment => ({
  id: rkOf(item.rk).toString(),
  actor: String(item.actor),
  text: String(item.text),
  time: String(item.time),
});

/** A comment id from a path; undefined if it cannot name a comment. */
export const parseCommentId = (id: string): bigint | undefined => {
  const rk = parseRangeKey(id);
  return rk !== undefined && rk > 0n && rk.toString() === id ? rk : undefined;
};
