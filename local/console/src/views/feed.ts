/**
 * The home feed: a post form, then the feed with "Newer" (a `since` catch-up) and "Older" paging;
 * copies pushed over the realtime channel appear live, in their place (live.ts).
 */
import { activityList } from '../activity-list.js';
import { dataOf } from '../api.js';
import { busy, h, replace } from '../dom.js';
import { limitOf } from '../links.js';
import type { ViewRenderer } from './context.js';

export const renderFeed: ViewRenderer = async ({ session, place, live }, root) => {
  const { client, user } = session;
  const list = activityList({
    user,
    limit: limitOf(place.params),
    edit: (shown, content) => client.updateActivity(shown.id, { content }, { ifMatch: `"${shown.version}"` }),
    empty: 'Your feed is empty: post something, or follow someone.',
    read: (query) => dataOf('GET /feed', client.GET('/feed', { params: { query } })),
  });

  const verb = h('input', { name: 'verb', value: 'post', required: true, pattern: '[a-z0-9_.\\-]{1,64}', size: 12, 'aria-label': 'verb' });
  const content = h('textarea', { name: 'content', rows: 2, maxlength: 2000, placeholder: 'What happened?', 'aria-label': 'content' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Post');
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const form = h('form', { class: 'post-form', 'data-testid': 'post-form' }, verb, content, submit, status);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(submit, status, async () => {
      const body = { verb: verb.value.trim(), ...(content.value.trim() ? { content: content.value.trim() } : {}) };
      const posted = await dataOf('POST /activities', client.POST('/activities', { body }));
      content.value = '';
      // The author's own copy is written with the 201, so a catch-up finds it at once.
      await list.newer();
      replace(status, h('p', { class: 'muted' }, `Posted (${posted.verb}).`));
    });
  });

  replace(root, h('h1', {}, 'Home feed'), form, list.element);
  await list.reload();
  live.showFeed({
    ...list,
    // Nothing shown, nothing to catch up from: read the first page (what arrived meanwhile).
    caughtUp: async () => (list.shown().ids.length ? undefined : list.newer()),
  });
};
