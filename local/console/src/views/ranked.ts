/**
 * Ranked: `?view=ranked` lists the ranked feeds the signed-in user may read (GET /feeds: their own
 * and the shared ones) and defines one of their own over their home feed (PUT /feeds/{feedId});
 * `&feed=<id>` reads it (GET /feeds/{feedId}/activities?explain=true), highest score first, each
 * row with its score and the variables behind it, "More" following the ranking's `next`.
 */
import type { RankedActivity } from '@tickfeed/client';
import { activityRow } from '../activity-list.js';
import { dataOf } from '../api.js';
import { busy, h, replace } from '../dom.js';
import { hrefOf, limitOf } from '../links.js';
import type { ViewContext, ViewRenderer } from './context.js';

export const renderRanked: ViewRenderer = async (ctx, root) => {
  const feed = ctx.place.params.get('feed');
  return feed ? renderFeedPage(ctx, root, feed) : renderOverview(ctx, root);
};

async function renderOverview({ session }: ViewContext, root: HTMLElement): Promise<void> {
  const { client, user } = session;
  const feeds = await dataOf('GET /feeds', client.GET('/feeds'));
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const id = h('input', { name: 'feedId', required: true, placeholder: 'feed id', 'aria-label': 'feed id', pattern: '[a-z0-9][a-z0-9_\\-]{0,63}' });
  const expression = h('input', { name: 'expression', required: true, value: 'ln(1 + popularity) - age / 24', 'aria-label': 'ranking expression', size: 40 });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save');
  const form = h('form', { class: 'follow-form', 'data-testid': 'define-feed' }, id, expression, save);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(save, status, async () => {
      const feedId = id.value;
      // The schema's defaults, spelled out: the typed client asks for every field it has a default for.
      const body = {
        sources: [{ type: 'following' as const, windowHours: 72, limit: 200 }],
        expression: expression.value,
        attributeDefaults: {},
        heuristics: {},
      };
      await dataOf(`PUT /feeds/${feedId}`, client.PUT('/feeds/{feedId}', { params: { path: { feedId } }, body }));
      window.location.href = hrefOf({ user, view: 'ranked', params: { feed: feedId } });
    });
  });
  replace(
    root,
    h('h1', {}, 'Ranked feeds'),
    feeds.items.length
      ? h(
          'ul',
          { 'data-testid': 'feeds' },
          ...feeds.items.map((f) => h('li', {}, h('a', { href: hrefOf({ user, view: 'ranked', params: { feed: f.feedId } }) }, f.feedId))),
        )
      : h('p', { class: 'muted' }, 'None yet.'),
    h('h2', {}, 'A new one, over your home feed'),
    form,
    status,
  );
}

/** The variables behind a score, as `name value` pairs (docs/ranked-feeds.md names them). */
const explanation = (a: RankedActivity) =>
  Object.entries(a.variables ?? {})
    .map(([name, value]) => `${name} ${Number.isInteger(value) ? value : value.toFixed(2)}`)
    .join(' · ');

async function renderFeedPage(ctx: ViewContext, root: HTMLElement, feedId: string): Promise<void> {
  const { client, user } = ctx.session;
  const limit = limitOf(ctx.place.params);
  const list = h('ol', { class: 'activities', 'data-testid': 'activities' });
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', 'data-testid': 'more' }, 'More');
  let next: string | null = null;
  const read = async () => {
    const query = { limit, explain: 'true' as const, ...(next ? { cursor: next } : {}) };
    const page = await dataOf(`GET /feeds/${feedId}/activities`, client.GET('/feeds/{feedId}/activities', { params: { path: { feedId }, query } }));
    list.append(
      ...page.items.map((a) => {
        const row = activityRow(a, user);
        if (a.score === undefined) return row; // a generator feed's items: its generator's order, no score
        row.dataset.score = String(a.score);
        row.append(h('p', { class: 'muted score', 'data-testid': 'score' }, `score ${a.score.toFixed(3)} = ${explanation(a)}`));
        return row;
      }),
    );
    next = page.next;
    more.hidden = next === null;
    replace(
      status,
      page.filtered ? h('p', { class: 'muted' }, `${page.filtered} left out of this page (deleted, or their author muted or blocked).`) : null,
      list.childElementCount ? null : h('p', { class: 'muted' }, 'Nothing to rank yet.'),
    );
  };
  more.addEventListener('click', () => void busy(more, status, read));
  await read();
  replace(root, h('h1', {}, `Ranked: ${feedId}`), h('p', {}, h('a', { href: hrefOf({ user, view: 'ranked' }) }, 'All ranked feeds')), list, more, status);
}
