/**
 * The one cursor codec of every `{ items, next }` list (followers, following, comments,
 * notifications, mutes, blocks, the export's parts): a cursor is base64url of the key the next
 * page continues after. It is opaque to clients, and a cursor is accepted only if it is exactly
 * what this codec makes of a key of that list (`isKey`, declared beside the list's key template
 * in the model) — so a forged or another list's cursor is a 400, never a Query from a key a list
 * never produced (an oversized sort key would otherwise be a 500). Feeds page by range key
 * (`before`/`lastRangeKey`) instead.
 */

export const encodeCursor = (key: string): string => Buffer.from(key, 'utf8').toString('base64url');

/** The key a cursor names, or undefined when it is not one `encodeCursor` made of a key of this list. */
export function decodeCursor(cursor: string, isKey: (key: string) => boolean): string | undefined {
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  return encodeCursor(key) === cursor && isKey(key) ? key : undefined;
}

/** DynamoDB's limit on a sort key's size: no cursor may name a longer key. */
export const MAX_SORT_KEY_BYTES = 1024;
