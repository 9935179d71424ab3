/**
 * The one user-id rule, for the JWT `sub`, path parameters, job bodies and keys alike:
 * 1–256 characters, no control characters, well-formed UTF-16 (storable as UTF-8), no U+FFFE or
 * U+FFFF (SQS refuses them in a job body: model/carriable-text.ts).
 */

export const MAX_USER_ID_CHARS = 256;
/** Bytes a user id can take as UTF-8 (≤ 4 per character): what an activity id may encode. */
export const MAX_USER_ID_BYTES = 4 * MAX_USER_ID_CHARS;

/** No lone UTF-16 surrogates: they cannot be stored as UTF-8 (JSON allows them as `\ud800`). */
export const isWellFormed = (s: string) => !/[\uD800-\uDFFF]/u.test(s);

export const isValidUserId = (id: string): boolean =>
  id.length > 0 && id.length <= MAX_USER_ID_CHARS && !/[\u0000-\u001f\u007f\uFFFE\uFFFF]/.test(id) && isWellFormed(id);

export const USER_ID_RULE = `1–${MAX_USER_ID_CHARS} characters, no control characters, no U+FFFE or U+FFFF`;
