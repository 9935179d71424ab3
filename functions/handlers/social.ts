/**
 * Reactions and comments on an activity: react and unreact, post, list and delete comments.
 * See services/reactions.ts and services/comments.ts.
 */
import { json, routes } from '../http/handler.js';
import { listRequest } from '../http/schemas.js';
import { deleteComment, listComments, postComment } from '../services/comments.js';
import { react, unreact } from '../services/reactions.js';

const noContent = { statusCode: 204 };

export const handler = routes('social', {
  react: async ({ caller, path }) => {
    await react(caller.userId, path.id, path.kind);
    return noContent;
  },

  unreact: async ({ caller, path }) => {
    await unreact(caller.userId, path.id, path.kind);
    return noContent;
  },

  postComment: async ({ caller, path, body }) => json(201, await postComment(caller.userId, path.id, body.text)),

  listComments: async ({ caller, path, query }) => json(200, await listComments(caller.userId, path.id, listRequest(query))),

  deleteComment: async ({ caller, path }) => {
    await deleteComment(caller.userId, path.id, path.commentId);
    return noContent;
  },
});
