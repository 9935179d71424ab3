/**
 * Reactions and comments on an activity: PUT/DELETE /activities/{id}/reactions/{kind},
 * POST/GET /activities/{id}/comments, DELETE /activities/{id}/comments/{commentId}.
 * See services/reactions.ts and services/comments.ts.
 */
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { parseRequest } from '../http/parse-request.js';
import { listRequest } from '../http/schemas.js';
import type { AuthedEvent } from '../http/types.js';
import { deleteComment, listComments, postComment } from '../services/comments.js';
import { react, unreact } from '../services/reactions.js';

const noContent = { statusCode: 204 };

export const handler = routes<AuthedEvent>({
  'PUT /activities/{id}/reactions/{kind}': async (event) => {
    const caller = callerId(event);
    const { path } = parseRequest(event, 'PUT /activities/{id}/reactions/{kind}');
    await react(caller, path.id, path.kind);
    return noContent;
  },

  'DELETE /activities/{id}/reactions/{kind}': async (event) => {
    const caller = callerId(event);
    const { path } = parseRequest(event, 'DELETE /activities/{id}/reactions/{kind}');
    await unreact(caller, path.id, path.kind);
    return noContent;
  },

  'POST /activities/{id}/comments': async (event) => {
    const caller = callerId(event);
    const { path, body } = parseRequest(event, 'POST /activities/{id}/comments');
    return json(201, await postComment(caller, path.id, body.text));
  },

  'GET /activities/{id}/comments': async (event) => {
    const caller = callerId(event);
    const { path, query } = parseRequest(event, 'GET /activities/{id}/comments');
    return json(200, await listComments(caller, path.id, listRequest(query)));
  },

  'DELETE /activities/{id}/comments/{commentId}': async (event) => {
    const caller = callerId(event);
    const { path } = parseRequest(event, 'DELETE /activities/{id}/comments/{commentId}');
    await deleteComment(caller, path.id, path.commentId);
    return noContent;
  },
});
