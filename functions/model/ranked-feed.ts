/**
 * Ranked feeds (docs/ranked-feeds.md), in the graph table:
 *   definition     `rfeed#<feedId>` / `def`: the definition as JSON (`body`), `owner` (the user who
 *                  wrote it), `shared` (an admin's: every user may read it; else only its owner)
 *   list entry     `rfeeds#<owner>` / `<feedId>`: what GET /feeds pages (shared ones under `*`)
 *   snapshot       `rsnap#<snapshotId>` / `ids`: a first page's ranked ids, `reader`, `feedId`,
 *                  `scores`, `expiresAt` (SNAPSHOT_TTL_SECONDS): later pages read it, never re-rank
 *   reader marks   `rmarks#<reader>` / `marks`: the reader's `seen` ids (newest MAX_SEEN) and author
 *                  `weights` (less/more), `v` (each write conditions on the version it read)
 */
import { textOfBase64url } from './base64url.js';

export const FEED_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** The owner GET /feeds lists shared feeds under: no user id is `*`. */
export const SHARED_OWNER = '*';

export const definitionKey = (feedId: string) => ({ pk: `rfeed#${feedId}`, sk: 'def' });
export const definitionListPartition = (owner: string) => `rfeeds#${owner}`;
export const definitionListKey = (owner: string, feedId: string) => ({ pk: definitionListPartition(owner), sk: feedId });
/** A GET /feeds cursor names a feed id of the list. */
export const isFeedListSortKey = (key: string): boolean => FEED_ID.test(key);

export const snapshotKey = (snapshotId: string) => ({ pk: `rsnap#${snapshotId}`, sk: 'ids' });
/** How long a reader may page one ranking: after it, a later page is a 400 that says so. */
export const SNAPSHOT_TTL_SECONDS = 30 * 60;

export const readerMarksKey = (reader: string) => ({ pk: `rmarks#${reader}`, sk: 'marks' });
/** Seen marks kept per reader (the newest): bounds the item and the first page's read of it. */
export const MAX_SEEN = 1000;
/** Authors with a less/more weight kept per reader (the latest changed). */
export const MAX_WEIGHTS = 200;

/** A ranked-feed cursor: the snapshot and the position the next page starts at. */
export const encodeRankedCursor = (snapshotId: string, position: number): string => Buffer.from(`${snapshotId}.${position}`, 'utf8').toString('base64url');

export function decodeRankedCursor(cursor: string): { snapshotId: string; position: number } | undefined {
  const text = textOfBase64url(cursor);
  if (text === undefined) return undefined;
  const m = /^([A-Za-z0-9_-]{22})\.(\d{1,4})$/.exec(text);
  return m ? { snapshotId: m[1]!, position: Number(m[2]) } : undefined;
}
