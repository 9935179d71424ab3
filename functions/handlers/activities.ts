/**
 * POST /activities, GET /activities/{id}, DELETE /activities/{id}.
 * The actor is always the caller (JWT `sub`); the id names the original's key, so GET and DELETE
 * need no index. A malformed id names nothing: 404, like an absent one.
 */
import { tables } from '../../lib/defs/tables.js';
import { requireEnv } from '../core/env.js';
import { NotFoundError } from '../core/errors.js';
import { originalItem } from '../core/feed/activity.js';
import { LIMITS, postActivityBody } from '../core/feed/schemas.js';
import { getOriginal, markDeleted, writeOriginal } from '../core/feed/store.js';
import { newDiscriminator, parseActivityId } from '../core/keys.js';
import { logger } from '../core/logger.js';
import { expiresAtFor } from '../core/retention/bounds.js';
import { policyFromEnv } from '../core/retention/policy.js';
import { countAndTrim } from '../core/retention/trim.js';
import { nowTicks, ticksFromIso } from '../core/ticks.js';
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { jsonBody } from '../http/request.js';
import type { AuthedEvent } from '../http/types.js';

const t = { feed: requireEnv(tables.feed.envVar), graph: requireEnv(tables.graph.envVar) };
const policy = policyFromEnv();

function idParam(event: AuthedEvent) {
  const parsed = parseActivityId(event.pathParameters?.id ?? '');
  if (!parsed) throw new NotFoundError('No such activity.');
  return parsed;
}

export const handler = routes<AuthedEvent>({
  'POST /activities': async (event) => {
    const actor = callerId(event);
    const body = jsonBody(event, postActivityBody, LIMITS.bodyBytes);
    // The schema has already checked that `time` yields ticks inside the key range.
    const ticks = body.time === undefined ? nowTicks() : ticksFromIso(body.time)!;
    const item = originalItem(actor, body, ticks, newDiscriminator(), expiresAtFor(ticks, policy));
    const { created, activity } = await writeOriginal(t, item);
    if (created) {
      // Retention by count. The post has succeeded; a failed counter update only delays a trim,
      // and answering 500 now would invite a duplicate post from a client without foreignId.
      await countAndTrim(actor, 1, policy, item.rk).catch((error: unknown) =>
        logger.warn('feed counter update failed', { error: error as Error, owner: actor }),
      );
    }
    return json(created ? 201 : 200, activity, created ? { location: `/activities/${activity.id}` } : {});
  },

  'GET /activities/{id}': async (event) => {
    callerId(event);
    const { actor, rk } = idParam(event);
    return json(200, await getOriginal(t, actor, rk));
  },

  'DELETE /activities/{id}': async (event) => {
    const caller = callerId(event);
    const { actor, rk } = idParam(event);
    await markDeleted(t, caller, actor, rk);
    return { statusCode: 204 };
  },
});
