/**
 * Bulk import, for moving an existing network onto tickfeed (tokens with the tickfeed/admin scope):
 *   POST /batch/follows     { follows: [{ follower, followee }], backfill? }  → { created, existing, skipped }
 *   POST /batch/activities  { activities: [{ actor, verb, … }] }             → { items: [{ id, status }] }
 * See services/bulk/.
 */
import { requireAdmin } from '../services/access.js';
import { importActivities } from '../services/bulk/activities.js';
import { importFollows } from '../services/bulk/follows.js';
import { callerOf } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { parseRequest } from '../http/parse-request.js';
import type { AuthedEvent } from '../http/types.js';

export const handler = routes<AuthedEvent>({
  'POST /batch/follows': async (event) => {
    // The authorizer requires the admin scope on these routes; checked here too, before anything is read.
    requireAdmin(callerOf(event).admin, 'Importing follows');
    const { body } = parseRequest(event, 'POST /batch/follows');
    return json(200, await importFollows(body.follows, body.backfill ?? false));
  },
  'POST /batch/activities': async (event) => {
    const { userId, admin } = callerOf(event);
    requireAdmin(admin, 'Importing activities');
    const { body } = parseRequest(event, 'POST /batch/activities');
    return json(200, await importActivities(userId, body.activities));
  },
});
