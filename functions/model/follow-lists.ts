/**
 * Followers and following lists in the graph table, newest follow first:
 *   followers  pk = followers#<followee>  sk = <order>#<follower>
 *   following  pk = following#<follower>  sk = <order>#<followee>
 * Clients page with the cursor of model/cursor.ts over the last sort key.
 */
import { MAX_SORT_KEY_BYTES } from './cursor.js';
import { isValidUserId } from './user-id.js';

export type FollowList = 'followers' | 'following';

export const followListPartition = (which: FollowList, userId: string) => `${which}#${userId}`;

/** The entry of `member` in `owner`'s list (`owner` is the followee for followers, the follower for following). */
export const followListKey = (which: FollowList, owner: string, order: string, member: string) => ({
  pk: followListPartition(which, owner),
  sk: `${order}#${member}`,
});

/** `muted` only on a followers entry: the member (the follower) muted the owner. */
export const followListItem = (which: FollowList, owner: string, order: string, member: string, muted = false) => ({
  ...followListKey(which, owner, order, member),
  userId: member,
  ...(muted ? { muted: true } : {}),
});

/** The user id in a list sort key (`<order>#<userId>`; ids may contain `#`). */
export const memberOfListSortKey = (sk: string): string => sk.slice(sk.indexOf('#') + 1);

/**
 * Whether `sk` is a list sort key this API could have produced (`<19-digit order>#<user id>`,
 * within DynamoDB's sort-key size): what a cursor of a followers or following list may name.
 */
export const isFollowListSortKey = (sk: string): boolean =>
  /^\d{19}#./.test(sk) && isValidUserId(memberOfListSortKey(sk)) && Buffer.byteLength(sk) <= MAX_SORT_KEY_BYTES;
