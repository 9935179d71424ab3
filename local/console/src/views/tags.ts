/**
 * Tags: `?view=tags` shows what is trending (GET /tags/trending, this hour and today) and the tags
 * the signed-in user follows (GET /me/tags); `&tag=café` shows that tag's activities (GET
 * /tags/{tag}/activities, paged like the feed) with a Follow / Unfollow button (PUT/DELETE
 * /following/tags/{tag}).
 */
import type { TrendingTags } from '@tickfeed/client';
import { activityList } from '../activity-list.js';
import { dataOf } from '../api.js';
import { busy, h, replace } from '../dom.js';
import { hrefOf, limitOf } from '../links.js';
import type { ViewContext, ViewRenderer } from './context.js';

const tagLink = (user: string, tag: string) => h('a', { href: hrefOf({ user, view: 'tags', params: { tag } }), 'data-tag': tag }, `#${tag}`);

export const renderTags: ViewRenderer = async (ctx, root) => {
  const tag = ctx.place.params.get('tag');
  return tag ? renderTag(ctx, root, tag) : renderOverview(ctx, root);
};

async function renderOverview({ session }: ViewContext, root: HTMLElement): Promise<void> {
  const { client, user } = session;
  const trending = (window: '1h' | '24h') => dataOf(`GET /tags/trending?window=${window}`, client.GET('/tags/trending', { params: { query: { window } } }));
  const [hour, day, followed] = await Promise.all([trending('1h'), trending('24h'), dataOf('GET /me/tags', client.GET('/me/tags'))]);
  const ranking = (title: string, t: TrendingTags, testid: string) =>
    h(
      'section',
      { 'data-testid': testid },
      h('h2', {}, title),
      t.tags.length
        ? h(
            'ol',
            {},
            ...t.tags.map((e) => h('li', {}, tagLink(user, e.tag), h('span', { class: 'muted' }, ` · ${e.authors} ${e.authors === 1 ? 'author' : 'authors'}`))),
          )
        : h('p', { class: 'muted' }, 'Nothing yet.'),
    );
  const input = h('input', { name: 'tag', required: true, placeholder: 'tag', 'aria-label': 'tag to open' });
  const form = h(
    'form',
    { method: 'get', action: import.meta.env.BASE_URL, class: 'follow-form' },
    h('input', { type: 'hidden', name: 'user', value: user }),
    h('input', { type: 'hidden', name: 'view', value: 'tags' }),
    input,
    h('button', { type: 'submit', class: 'primary' }, 'Open'),
  );
  replace(
    root,
    h('h1', {}, 'Tags'),
    form,
    h('div', { class: 'columns' }, ranking('Trending this hour', hour, 'trending-1h'), ranking('Trending today', day, 'trending-24h')),
    h('h2', {}, 'Tags you follow'),
    followed.items.length
      ? h('ul', { 'data-testid': 'followed-tags' }, ...followed.items.map((f) => h('li', {}, tagLink(user, f.tag))))
      : h('p', { class: 'muted' }, 'None yet.'),
  );
}

async function renderTag(ctx: ViewContext, root: HTMLElement, tag: string): Promise<void> {
  const { client, user } = ctx.session;
  const path = { params: { path: { tag } } };
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const action = (label: string, run: () => Promise<unknown>, done: string) => {
    const button = h('button', { type: 'button', 'data-action': label.toLowerCase() }, label);
    button.addEventListener('click', () =>
      busy(button, status, async () => {
        await run();
        replace(status, h('p', { class: 'muted' }, done));
      }),
    );
    return button;
  };
  const list = activityList({
    user,
    limit: limitOf(ctx.place.params),
    empty: `Nothing tagged #${tag} yet.`,
    read: (query) => dataOf(`GET /tags/${tag}/activities`, client.GET('/tags/{tag}/activities', { params: { path: { tag }, query } })),
  });
  replace(
    root,
    h('h1', {}, `#${tag}`),
    h(
      'p',
      {},
      action(
        'Follow',
        () => dataOf(`PUT /following/tags/${tag}`, client.PUT('/following/tags/{tag}', path)),
        `Following #${tag}: its new posts come into your feed.`,
      ),
      ' ',
      action('Unfollow', () => dataOf(`DELETE /following/tags/${tag}`, client.DELETE('/following/tags/{tag}', path)), `Not following #${tag}.`),
      ' ',
      h('a', { href: hrefOf({ user, view: 'tags' }) }, 'all tags'),
    ),
    status,
    list.element,
  );
  await list.reload();
}
