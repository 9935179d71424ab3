/**
 * Reading a JSON request body safely: size first (413, before any decoding or parsing), then the
 * media type (415), then strict UTF-8 and JSON (400). Nothing here touches storage, so a refused
 * request writes nothing.
 */
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../core/errors.js';
import type { HttpEvent } from './types.js';

/** `application/json` or any `application/*+json`, with optional parameters (`; charset=utf-8`). */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;.*)?$/i;

export function readJsonBody(event: HttpEvent, maxBytes: number): unknown {
  const raw = event.body ?? '';
  // Cheap pre-check on the string: a UTF-16 unit is at least one UTF-8 byte, and base64 inflates
  // by 4/3, so a longer string cannot fit and is refused without decoding it.
  if (raw.length > (event.isBase64Encoded ? Math.ceil(maxBytes / 3) * 4 : maxBytes)) {
    throw new PayloadTooLargeError(maxBytes);
  }
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > maxBytes) throw new PayloadTooLargeError(maxBytes);
  if (bytes.length === 0) throw new ValidationError('A JSON request body is required.', [{ field: 'body', message: 'Required.' }]);

  const contentType = headerOf(event, 'content-type');
  if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType)) throw new UnsupportedMediaTypeError();

  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ValidationError('The request body is not valid UTF-8.', [{ field: 'body', message: 'Invalid UTF-8.' }]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ValidationError('The request body is not valid JSON.', [{ field: 'body', message: (error as Error).message }]);
  }
}

/** HTTP API (payload 2.0) lowercases header names; look up case-insensitively anyway. */
export function headerOf(event: HttpEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  if (headers[name] !== undefined) return headers[name];
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}
