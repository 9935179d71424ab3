/** A user's own posts (GET /users/{userId}/activities), newest first, with the same paging as the feed. */
import { activityList } from '../activity-list.js';
import { dataOf } from '../api.js';
import { h, replace } from '../dom.js';
import { hrefOf, limitOf } from '../links.js';
import type { ViewRenderer } from './context.js';

export const renderTimeline: ViewRenderer = async ({ session, place }, root) => {
  const { client, user } = session;
  const userId = place.of;
  const list = activityList({
    user,
    limit: limitOf(place.params),
    edit: (shown, content) => client.updateActivity(shown.id, { content }, { ifMatch: `"${shown.version}"` }),
    empty: `${userId} has not posted anything.`,
    read: (query) => dataOf(`GET /users/${userId}/activities`, client.GET('/users/{userId}/activities', { params: { path: { userId }, query } })),
  });
  replace(
    root,
    h('h1', {}, userId === user ? 'Your posts' : `Posts by ${userId}`),
    h('p', {}, h('a', { href: hrefOf({ user, view: 'follows', of: userId }) }, `${userId}'s follows`)),
    list.element,
  );
  await list.reload();
};
