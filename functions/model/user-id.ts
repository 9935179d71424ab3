/** User ids as keys carry them. */

/** Longest user id (UTF-8 bytes) a key may carry: DynamoDB allows 2,048 for a partition key. */
export const MAX_USER_ID_BYTES = 1024;

/** No lone UTF-16 surrogates: they cannot be stored as UTF-8 (JSON allows them as `\ud800`). */
export const isWellFormed = (s: string) => !/[\uD800-\uDFFF]/u.test(s);

export const isValidUserId = (id: string): boolean =>
  id.length > 0 && Buffer.byteLength(id, 'utf8') <= MAX_USER_ID_BYTES && isWellFormed(id);
