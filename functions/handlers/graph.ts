/**
 * The follow graph over HTTP:
 *   PUT    /following/{userId}          follow (204; repeat = 204, no change)
 *   DELETE /following/{userId}          unfollow (204; not following = 204)
 *   GET    /users/{userId}/followers    ?limit=1..100 (20) &before=<cursor>  newest follow first
 *   GET    /users/{userId}/following    same
 *   GET    /users/{userId}              { userId, followers, following }
 * A page is `{ items: [{ userId }], next? }`; pass `next` as `before` for the following page.
 */
import { enqueueJob } from '../core/fanout/jobs.js';
import { ValidationError } from '../core/errors.js';
import { checkThreshold } from '../core/graph/flip.js';
import { follow, type FollowList, listFollows, unfollow } from '../core/graph/follows.js';
import { getProfile } from '../core/profile-store.js';
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import type { AuthedEvent, HttpResult } from '../http/types.js';

const noContent: HttpResult = { statusCode: 204 };

function targetOf(event: AuthedEvent): string {
  const id = event.pathParameters?.userId ?? '';
  if (id.length < 1 || id.length > 256 || /[\u0000-\u001f]/.test(id)) {
    throw new ValidationError('Invalid user id.', [{ field: 'path.userId', message: '1–256 printable characters' }]);
  }
  return id;
}

async function list(event: AuthedEvent, which: FollowList): Promise<HttpResult> {
  const userId = targetOf(event);
  const q = event.queryStringParameters ?? {};
  const errors: { field: string; message: string }[] = [];
  const limit = q.limit === undefined ? 20 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) errors.push({ field: 'query.limit', message: 'an integer 1–100' });
  let after: string | undefined;
  if (q.before !== undefined) {
    after = Buffer.from(q.before, 'base64url').toString('utf8');
    if (!/^\d{19}#./.test(after)) errors.push({ field: 'query.before', message: 'a cursor from a previous page' });
  }
  if (errors.length) throw new ValidationError('Invalid list query.', errors);
  const page = await listFollows(which, userId, limit, after);
  return json(200, {
    items: page.userIds.map((id) => ({ userId: id })),
    ...(page.cursor ? { next: Buffer.from(page.cursor, 'utf8').toString('base64url') } : {}),
  });
}

export const handler = routes<AuthedEvent>({
  'PUT /following/{userId}': async (event) => {
    const me = callerId(event);
    const target = targetOf(event);
    const result = await follow(me, target);
    if (result.backfillPending) await enqueueJob({ kind: 'backfill', follower: me, followee: target });
    if (result.created) await checkThreshold(target);
    return noContent;
  },
  'DELETE /following/{userId}': async (event) => {
    const me = callerId(event);
    const target = targetOf(event);
    const result = await unfollow(me, target);
    if (result.cleanupPending) await enqueueJob({ kind: 'cleanup', follower: me, followee: target });
    if (result.removed) await checkThreshold(target);
    return noContent;
  },
  'GET /users/{userId}/followers': (event) => list(event, 'followers'),
  'GET /users/{userId}/following': (event) => list(event, 'following'),
  'GET /users/{userId}': async (event) => {
    const userId = targetOf(event);
    return json(200, { userId, ...(await getProfile(userId)) });
  },
});
