/**
 * Bulk import, for moving an existing network onto tickfeed (tokens with the tickfeed/admin scope,
 * checked before the body is read: handler.ts):
 *   importFollows     { follows: [{ follower, followee }], backfill? }  → { created, existing, skipped }
 *   importActivities  { activities: [{ actor, verb, … }] }             → { items: [{ id, status }] }
 * See services/bulk/.
 */
import { importActivities } from '../services/bulk/import-activities.js';
import { importFollows } from '../services/bulk/follows.js';
import { json, routes } from '../http/handler.js';

export const handler = routes('batchImport', {
  importFollows: async ({ body }) => json(200, await importFollows(body.follows, body.backfill ?? false)),
  importActivities: async ({ caller, body }) => json(200, await importActivities(caller.userId, body.activities)),
});
