/**
 * Request parts shared by the activity and feed handlers: the acting user, an activity id from
 * the path, and page parameters from the query string — all refused with 400 when malformed,
 * before anything reaches DynamoDB.
 */
import { limits, pageQuery, userIdParam } from '../core/activities/schemas.js';
import { ValidationError } from '../core/errors.js';
import { MAX_USER_ID_BYTES, type PageCursor, parseActivityId, parseRangeKey } from '../core/keys.js';
import { callerId } from './caller.js';
import type { AuthedEvent } from './types.js';
import { parseRequest } from './validate.js';

/** The caller as an actor / feed owner: a `sub` too long for a DynamoDB key is refused. */
export function actorOf(event: AuthedEvent): string {
  const sub = callerId(event);
  if (Buffer.byteLength(sub, 'utf8') > MAX_USER_ID_BYTES) {
    throw new ValidationError('The token subject is too long to be a user id.', [
      { field: 'token.sub', message: `at most ${MAX_USER_ID_BYTES} bytes` },
    ]);
  }
  return sub;
}

export function activityIdParam(event: AuthedEvent): { actor: string; rk: bigint } {
  const id = event.pathParameters?.id ?? '';
  const parsed = parseActivityId(id);
  if (!parsed) {
    throw new ValidationError('Malformed activity id.', [{ field: 'path.id', message: 'Not an activity id.' }]);
  }
  return parsed;
}

export function userIdPathParam(event: AuthedEvent): string {
  return parseRequest(userIdParam, event.pathParameters?.userId ?? '', 'path');
}

export function pageParams(event: AuthedEvent): { cursor: PageCursor; limit: number } {
  const q = parseRequest(pageQuery, event.queryStringParameters ?? {}, 'query');
  const limit = q.limit ?? limits.pageDefault;
  // The schema has checked both cursors; parseRangeKey cannot fail here.
  if (q.before !== undefined) return { cursor: { kind: 'before', rk: parseRangeKey(q.before)! }, limit };
  if (q.since !== undefined) return { cursor: { kind: 'since', rk: parseRangeKey(q.since)! }, limit };
  return { cursor: { kind: 'newest' }, limit };
}
