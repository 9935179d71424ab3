/**
 * Posting, reading and deleting an activity. The actor is the caller (JWT `sub`); a token with the
 * tickfeed/admin scope may name another one (`actor` in the body). See services/posting.ts and
 * services/access.ts.
 */
import { deleteActivity, postActivity } from '../services/posting.js';
import { getActivityWithReactions } from '../services/reactions.js';
import { json, routes } from '../http/handler.js';

export const handler = routes('activities', {
  postActivity: async ({ caller, body }) => {
    const { created, activity } = await postActivity(caller.userId, caller.admin, body);
    return json(created ? 201 : 200, activity, created ? { location: `/activities/${activity.id}` } : {});
  },

  getActivity: async ({ caller, path }) => json(200, await getActivityWithReactions(caller.userId, path.id)),

  deleteActivity: async ({ caller, path }) => {
    await deleteActivity(caller.userId, path.id);
    return { statusCode: 204 };
  },
});
