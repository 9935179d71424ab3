/**
 * Followers and following of a user (GET /users/{id}/followers|following, "More" pages on with
 * the page's `next` as `cursor`), their counts (GET /users/{id}), and follow/unfollow buttons (PUT/DELETE /following/{id}).
 */
import type { FollowListEntry } from '@tickfeed/client';
import { dataOf } from '../api.js';
import { busy, h, replace } from '../dom.js';
import { hrefOf, limitOf } from '../links.js';
import type { Session } from '../session.js';
import type { ViewContext, ViewRenderer } from './context.js';

type List = 'followers' | 'following';

export const renderFollows: ViewRenderer = async (ctx, root) => {
  const { session, place } = ctx;
  const { client, user } = session;
  const userId = place.of;
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  // After a follow or unfollow the counts and lists change: draw the view again, keeping the message.
  const redraw = async (message: string) => {
    await renderFollows(ctx, root);
    replace(root.querySelector('.status')!, h('p', { class: 'muted' }, message));
  };
  const follow = (target: string) => dataOf(`PUT /following/${target}`, client.PUT('/following/{userId}', { params: { path: { userId: target } } }));
  const unfollow = (target: string) => dataOf(`DELETE /following/${target}`, client.DELETE('/following/{userId}', { params: { path: { userId: target } } }));
  const action = (label: string, target: string, run: (id: string) => Promise<unknown>, done: string) => {
    const button = h('button', { type: 'button', 'data-action': label.toLowerCase(), 'data-user': target }, label);
    button.addEventListener('click', () =>
      busy(button, status, async () => {
        await run(target);
        await redraw(`${done} ${target}.`);
      }),
    );
    return button;
  };

  const counts = await dataOf(`GET /users/${userId}`, client.GET('/users/{userId}', { params: { path: { userId } } }));

  const other = h('input', { name: 'userId', required: true, placeholder: 'user id', 'aria-label': 'user to follow' });
  const followButton = h('button', { type: 'submit', class: 'primary' }, 'Follow');
  const form = h('form', { class: 'follow-form', 'data-testid': 'follow-form' }, other, followButton);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const target = other.value.trim();
    void busy(followButton, status, async () => {
      await follow(target);
      await redraw(`Following ${target}.`);
    });
  });

  const rowAction = (list: List, entry: string) => {
    if (entry === user) return null;
    // Whom the signed-in user follows is known for their own following list only; elsewhere PUT is
    // harmless to repeat (204 when already following).
    return list === 'following' && userId === user ? action('Unfollow', entry, unfollow, 'Unfollowed') : action('Follow', entry, follow, 'Following');
  };

  replace(
    root,
    h('h1', {}, userId === user ? 'Your follows' : `${userId}'s follows`),
    h(
      'p',
      { 'data-testid': 'follow-counts' },
      `${counts.followers} followers · ${counts.following} following · `,
      h('a', { href: hrefOf({ user, view: 'timeline', of: userId }) }, 'posts'),
    ),
    userId === user ? form : h('p', {}, action('Follow', userId, follow, 'Following'), ' ', action('Unfollow', userId, unfollow, 'Unfollowed')),
    status,
    h(
      'div',
      { class: 'columns' },
      await followList(session, 'followers', userId, limitOf(ctx.place.params), rowAction),
      await followList(session, 'following', userId, limitOf(ctx.place.params), rowAction),
    ),
  );
};

async function followList(
  session: Session,
  list: List,
  userId: string,
  limit: number,
  rowAction: (list: List, entry: string) => HTMLElement | null,
): Promise<HTMLElement> {
  const items = h('ul', { class: 'users', 'data-testid': list });
  const more = h('button', { type: 'button' }, 'More');
  const status = h('div', { class: 'status' });
  const read = (cursor: string | null) =>
    dataOf(
      `GET /users/${userId}/${list}`,
      session.client.GET(`/users/{userId}/${list}`, { params: { path: { userId }, query: cursor === null ? { limit } : { limit, cursor } } }),
    );
  const show = (page: { items: FollowListEntry[]; next: string | null }) => {
    for (const { userId: entry } of page.items) {
      items.append(
        h('li', { 'data-user': entry }, h('a', { href: hrefOf({ user: session.user, view: 'follows', of: entry }) }, entry), ' ', rowAction(list, entry)),
      );
    }
    next = page.next;
    more.hidden = next === null;
    if (!items.childElementCount) replace(status, h('p', { class: 'muted' }, 'Nobody yet.'));
  };
  let next: string | null = null;
  more.addEventListener('click', () =>
    busy(more, status, async () => {
      if (next !== null) show(await read(next));
    }),
  );
  show(await read(null));
  return h('section', {}, h('h2', {}, list === 'followers' ? 'Followers' : 'Following'), status, items, more);
}
