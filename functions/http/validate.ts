/**
 * zod at the HTTP edge: parse a request part with a schema, or throw a `ValidationError` whose
 * `errors` name each offending field (`verb`, `attributes.score`, `query.limit`, `path.id`).
 */
import type { z } from 'zod';
import { type FieldError, ValidationError } from '../core/errors.js';

export type RequestPart = 'body' | 'query' | 'path';

export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, part: RequestPart): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(`The request ${part} is invalid.`, fieldErrors(result.error.issues, part));
}

export function fieldErrors(issues: readonly z.core.$ZodIssue[], part: RequestPart): FieldError[] {
  const prefix = part === 'body' ? '' : `${part}.`;
  const name = (path: readonly PropertyKey[]) => `${prefix}${path.map(String).join('.')}` || part;
  const errors: FieldError[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      // One entry per unknown field, so a client sees which name it got wrong.
      for (const key of issue.keys) errors.push({ field: name([...issue.path, key]), message: 'Unknown field.' });
    } else {
      errors.push({ field: name(issue.path), message: issue.message });
    }
  }
  return errors;
}
