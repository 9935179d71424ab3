/**
 * An activity's ETag is its version (`"3"`): `If-Match` with it makes an edit conditional. Weak
 * tags (`W/"3"`) compare by their value; `*` matches any current version.
 * @example etagMatches('"2", "3"', 3) // true
 */
export const etagOf = (version: number): string => `"${version}"`;

export function etagMatches(ifMatch: string, version: number): boolean {
  const tags = ifMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
  return tags.includes('*') || tags.includes(etagOf(version));
}
