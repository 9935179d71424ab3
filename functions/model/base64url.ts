/**
 * The text a base64url string encodes, in canonical form only: undefined for non-UTF-8 bytes,
 * padding variants and trailing garbage bits, so one value has one encoding (ids and cursors
 * compare as strings).
 */
export function textOfBase64url(encoded: string): string | undefined {
  const text = Buffer.from(encoded, 'base64url').toString('utf8');
  return Buffer.from(text, 'utf8').toString('base64url') === encoded ? text : undefined;
}
