/**
 * Followers and following lists in the graph table, newest follow first:
 *   followers  pk = followers#<followee>  sk = <order>#<follower>
 *   following  pk = following#<follower>  sk = <order>#<followee>
 * Clients page with an opaque cursor: base64url of the last sort key.
 */
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

export const encodeListCursor = (sk: string): string => Buffer.from(sk, 'utf8').toString('base64url');

/** DynamoDB's limit on a sort key's size. */
const MAX_SORT_KEY_BYTES = 1024;

/** The sort key a client cursor names, or undefined if it is not one this API produced. */
export function decodeListCursor(cursor: string): string | undefined {
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  // A well-formed member too: an arbitrary tail could pass DynamoDB's sort-key size (a 500, not a 400).
  return /^\d{19}#./.test(sk) && isValidUserId(memberOfListSortKey(sk)) && Buffer.byteLength(sk) <= MAX_SORT_KEY_BYTES ? sk : undefined;
}

