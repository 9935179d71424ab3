/**
 * The one contract of every list the API answers that is not a feed (followers, following,
 * comments, notifications, mutes, blocks): `{ items, next }`, `next` the opaque cursor of the next
 * page — null, never absent, once nothing more remains — which the client passes back as
 * `?cursor=`. The cursor is model/cursor.ts's over the store page's `last` key. Feeds (home feed,
 * timelines, the aggregated feed, realtime catch-up) page by range key with `before`/`since`
 * instead (feed-merge.ts).
 */
import { decodeCursor, encodeCursor } from '../model/cursor.js';
import { invalidCursor } from '../model/domain-errors.js';
import type { Page } from '../platform/dynamo/query.js';

export interface ListPage<T> {
  readonly items: T[];
  readonly next: string | null;
}

/** A page asked for: its size, and the `next` of the previous page (none for the first). */
export interface ListRequest {
  readonly limit: number;
  readonly cursor?: string;
}

/**
 * The key a list continues after: what the request's cursor names, undefined for the first page.
 * A cursor that is not one of this list's (`isKey`, from the model) is the shared invalid-cursor 400.
 *
 * @example
 *   const after = afterCursor(req.cursor, isFollowListSortKey); // a sort key, or undefined
 */
export function afterCursor(cursor: string | undefined, isKey: (key: string) => boolean): string | undefined {
  if (cursor === undefined) return undefined;
  const after = decodeCursor(cursor, isKey);
  if (after === undefined) throw invalidCursor();
  return after;
}

/** A store's page as the API's list: its items shown, `next` the cursor of its `last` key. */
export const listPageOf = <T, U>(page: Page<T, string>, show: (item: T) => U): ListPage<U> => ({
  items: page.items.map(show),
  next: page.last === undefined ? null : encodeCursor(page.last),
});
