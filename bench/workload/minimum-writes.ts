/**
 * The fewest item writes the product must make for a set of follows or posts — the numerator of
 * the workload's end-to-end figures, `(minimum item writes ÷ raw BatchWriteItem items/s) ÷ elapsed`.
 * Only writes a correct implementation cannot avoid are counted; what ours writes on top (the
 * author's own copy written twice, a cleared pending flag, trim attempts, retries after a lost race,
 * rollups) is not. Where a write may be shared (a notification group, a head), it is counted once.
 *
 * A follow (stores/follow-store.ts createEdge, services/notifications/fold-events.ts):
 *   the edge, the followee's followers-list entry, the follower's following-list entry,
 *   the followee's follower count, the follower's following count                       5 per follow
 *   the follow notification: the actor's claim in the group and its actor-index entry   2 per follow
 *   the followee's "follow" group: the group, its order item, the notification head     3 per followee
 *   (a backfill only for a followee who has posted: none do in this phase)
 * A post (services/posting.ts, fanout, notifications):
 *   the original and the author's own home-feed copy                                    2 per post
 *   one copy per follower                                                                n per post
 *   a mention: a new group of its own (the group, its order item), the claim, the
 *   actor-index entry                                                                   4 per mention
 *   the mentioned user's notification head                                              1 per recipient
 *   a stranger's quota item (the mentioned user does not follow the author, NOTIFY_STRANGER_LIMIT)
 *                                                                                       1 per (recipient, author)
 */

export interface FollowWrites {
  readonly follows: number;
  readonly total: number;
  readonly detail: string;
}

export function followMinimumWrites(follows: readonly { follower: number; followee: number }[]): FollowWrites {
  const followees = new Set(follows.map((f) => f.followee)).size;
  const graph = 5 * follows.length;
  const claims = 2 * follows.length;
  const groups = 3 * followees;
  return {
    follows: follows.length,
    total: graph + claims + groups,
    detail: `${follows.length} follows × 5 graph items + × 2 notification claim items + ${followees} followees × 3 group items`,
  };
}

export interface PostWrites {
  readonly posts: number;
  readonly copies: number;
  readonly total: number;
  readonly detail: string;
}

/**
 * `follows(a, b)`: whether a follows b when the posts are made (a stranger's mention spends quota).
 * `followerCount(u)`: u's followers when the posts are made (one copy each).
 */
export function postMinimumWrites(
  posts: readonly { author: number; mentions: readonly number[] }[],
  followerCount: (user: number) => number,
  follows: (a: number, b: number) => boolean,
): PostWrites {
  let copies = 0;
  let mentions = 0;
  const recipients = new Set<number>();
  const strangerPairs = new Set<string>();
  for (const p of posts) {
    copies += followerCount(p.author);
    for (const m of p.mentions) {
      mentions += 1;
      recipients.add(m);
      if (!follows(m, p.author)) strangerPairs.add(`${m}>${p.author}`);
    }
  }
  const originals = 2 * posts.length;
  const total = originals + copies + 4 * mentions + recipients.size + strangerPairs.size;
  return {
    posts: posts.length,
    copies,
    total,
    detail: `${posts.length} originals + ${posts.length} own copies + ${copies} follower copies + ${mentions} mentions × 4 + ${recipients.size} heads + ${strangerPairs.size} stranger quotas`,
  };
}
