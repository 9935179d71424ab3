/**
 * Lambda event filtering (FilterCriteria), for the local pollers: the subset of the pattern syntax
 * the shared definitions use (lib/defs/event-sources.ts), with Lambda's semantics —
 * - a pattern matches a record when every field it names matches (fields it does not name are free);
 * - a leaf is a list of alternatives, any one of which may match: an exact string, `{ prefix }`,
 *   or `{ exists: true | false }` (a missing parent counts as a missing field);
 * - a record passes the source when it matches ANY of its patterns; no patterns = every record.
 * Anything else (numeric, anything-but, …) is refused by `validateFilterPattern`, so a definition
 * the local runtime would apply differently from AWS fails loudly instead.
 */
import type { FilterPattern, FilterValue } from '../lib/defs/index.js';

type Json = unknown;

const isPlainObject = (v: Json): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Throws unless `pattern` uses only what this matcher implements. */
export function validateFilterPattern(pattern: FilterPattern, path = ''): void {
  if (!isPlainObject(pattern) || Object.keys(pattern).length === 0) throw new Error(`filter pattern ${path || '(root)'}: expected a non-empty object`);
  for (const [key, sub] of Object.entries(pattern)) {
    const at = path ? `${path}.${key}` : key;
    if (Array.isArray(sub)) {
      if (sub.length === 0) throw new Error(`filter pattern ${at}: empty list of alternatives`);
      for (const alt of sub as Json[]) {
        const ok =
          typeof alt === 'string' ||
          (isPlainObject(alt) && Object.keys(alt).length === 1 && (typeof alt.prefix === 'string' || typeof alt.exists === 'boolean'));
        if (!ok) throw new Error(`filter pattern ${at}: unsupported alternative ${JSON.stringify(alt)} (exact strings, prefix, exists)`);
      }
    } else {
      validateFilterPattern(sub as FilterPattern, at);
    }
  }
}

/** Does `record` (a Lambda event record, e.g. a DynamoDBRecord) match `pattern`? */
export function matchesPattern(pattern: FilterPattern, record: Json): boolean {
  for (const [key, sub] of Object.entries(pattern)) {
    const value = isPlainObject(record) ? record[key] : undefined;
    const ok = Array.isArray(sub) ? matchesLeaf(sub as readonly FilterValue[], value) : matchesPattern(sub as FilterPattern, value);
    if (!ok) return false;
  }
  return true;
}

function matchesLeaf(alternatives: readonly FilterValue[], value: Json): boolean {
  const present = value !== undefined && !isPlainObject(value); // `exists` is about leaves
  const values = Array.isArray(value) ? value : [value];
  return alternatives.some((alt) => {
    if (typeof alt === 'string') return values.some((v) => v === alt);
    if ('exists' in alt) return alt.exists === present;
    return values.some((v) => typeof v === 'string' && v.startsWith(alt.prefix));
  });
}

/** Lambda's rule for a source: no patterns = every record; else any pattern matching lets it through. */
export const passesFilters = (patterns: readonly FilterPattern[], record: Json): boolean =>
  patterns.length === 0 || patterns.some((p) => matchesPattern(p, record));
