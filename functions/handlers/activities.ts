/**
 * Posting, reading, editing and deleting an activity. The actor is the caller (JWT `sub`); a token
 * with the tickfeed/admin scope may name another one (`actor` in the body) and edit anyone's. See
 * services/posting.ts, services/edits/ and services/access.ts.
 */
import { editActivity } from '../services/edits/edit.js';
import { etagOf } from '../services/edits/etag.js';
import { activityHistory } from '../services/edits/history.js';
import { deleteActivity, postActivity } from '../services/posting.js';
import { getActivityWithReactions } from '../services/reactions.js';
import { listRequest } from '../http/schemas.js';
import { json, routes } from '../http/handler.js';

export const handler = routes('activities', {
  postActivity: async ({ caller, body }) => {
    const { created, activity } = await postActivity(caller.userId, caller.admin, body);
    return json(created ? 201 : 200, activity, created ? { location: `/activities/${activity.id}` } : {});
  },

  getActivity: async ({ caller, path }) => {
    const activity = await getActivityWithReactions(caller.userId, path.id);
    return json(200, activity, { etag: etagOf(activity.version) });
  },

  editActivity: async ({ caller, path, body, header }) => {
    const ifMatch = header('if-match');
    const activity = await editActivity({ caller: caller.userId, admin: caller.admin, id: path.id, patch: body, ...(ifMatch !== undefined && { ifMatch }) });
    return json(200, activity, { etag: etagOf(activity.version) });
  },

  getActivityHistory: async ({ caller, path, query }) => json(200, await activityHistory(caller.userId, path.id, listRequest(query))),

  deleteActivity: async ({ caller, path }) => {
    await deleteActivity(caller.userId, path.id);
    return { statusCode: 204 };
  },
});
