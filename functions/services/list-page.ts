/**
 * The one contract of every list the API answers that is not a feed (followers, following,
 * comments, notifications, mutes, blocks): `{ items, next }`, `next` the opaque cursor of the next
 * page — null, never absent, once nothing more remains — which the client passes back as
 * `?cursor=`. Feeds (home feed, timelines, the aggregated feed, realtime catch-up) page by range
 * key with `before`/`since` instead (feed-reading.ts).
 */
import { invalidCursor } from '../model/errors.js';

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
 * Where a list continues: what `decode` makes of the request's cursor, undefined for the first
 * page. A cursor `decode` refuses (undefined) is the shared invalid-cursor 400.
 *
 * @example
 *   const after = afterCursor(req.cursor, decodeListCursor); // a sort key, or undefined
 */
export function afterCursor<T>(cursor: string | undefined, decode: (cursor: string) => T | undefined): T | undefined {
  if (cursor === undefined) return undefined;
  const after = decode(cursor);
  if (after === undefined) throw invalidCursor();
  return after;
}
