/**
 * Request parsing at the HTTP edge: JSON bodies (size → media type → UTF-8 → JSON → schema, in
 * that order, so an oversized body is refused before any of it is parsed) and query strings,
 * both validated by zod schemas whose issues become per-field 400 errors. Before any schema, text
 * the job queue cannot carry (model/carriable-text.ts) is refused wherever it appears.
 */
import type { z } from 'zod';
import { CARRIABLE_RULE, codePointName, firstUncarriable } from '../model/carriable-text.js';
import { type FieldError, ValidationError } from '../model/domain-errors.js';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from './http-errors.js';
import type { HttpEvent } from './types.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parse and validate a JSON body of at most `limitBytes` bytes, of one of `mediaTypes`. */
export function jsonBody<S extends z.ZodType>(
  event: HttpEvent,
  schema: S,
  limitBytes: number,
  mediaTypes: readonly string[] = ['application/json'],
): z.output<S> {
  const raw = event.body ?? '';
  // A base64 body is 4/3 of its bytes: refuse absurd ones before decoding them at all.
  if (event.isBase64Encoded && raw.length > Math.ceil(limitBytes / 3) * 4 + 4) throw new PayloadTooLargeError(limitBytes);
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > limitBytes) throw new PayloadTooLargeError(limitBytes);

  const type = (headerOf(event, 'content-type') ?? '').toLowerCase();
  const [mediaType, ...params] = type.split(';').map((p) => p.trim());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (!mediaTypes.includes(mediaType ?? '') || (charset !== undefined && charset !== 'utf-8')) {
    throw new UnsupportedMediaTypeError();
  }
  if (bytes.length === 0) throw new ValidationError('A JSON body is required.', [{ field: 'body', message: 'Required.' }]);

  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (error) {
    throw new ValidationError('The body is not valid UTF-8 JSON.', [{ field: 'body', message: (error as Error).message }]);
  }
  assertCarriable(value, 'body');
  return validate(schema, value, 'body', 'Invalid request body.');
}

/** Validate the query string (absent = `{}`). */
export function queryParams<S extends z.ZodType>(event: HttpEvent, schema: S): z.output<S> {
  const query = event.queryStringParameters ?? {};
  assertCarriable(query, 'query');
  return validate(schema, query, 'query', 'Invalid query parameters.');
}

/**
 * 400 if any string in `value` (object keys included) holds a character SQS refuses: such text
 * would be acknowledged and then strand every job that carries it. Walks iteratively (a 16 KB
 * body can nest thousands deep).
 */
export function assertCarriable(value: unknown, where: string): void {
  const stack: [unknown, string][] = [[value, where]];
  while (stack.length > 0) {
    const [v, field] = stack.pop()!;
    if (typeof v === 'string') {
      const cp = firstUncarriable(v);
      if (cp !== undefined) {
        throw new ValidationError('The request holds text this service cannot carry.', [
          { field, message: `must not contain ${codePointName(cp)} (${CARRIABLE_RULE})` },
        ]);
      }
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, `${field}.${i}`]));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) stack.push([k, field], [item, `${field}.${k}`]);
    }
  }
}

export function validate<S extends z.ZodType>(schema: S, value: unknown, where: string, message: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(message, fieldErrors(result.error, where));
}

function fieldErrors(error: z.ZodError, where: string): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const base = [where, ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ field: `${base}.${key}`, message: 'Unknown field.' });
    } else {
      out.push({ field: base, message: issue.message });
    }
  }
  return out;
}

/** A request header by its name, in any case. */
export function headerOf(event: HttpEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  if (headers[name] !== undefined) return headers[name];
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}
