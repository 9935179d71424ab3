/**
 * The caller's notifications (GET /notifications, "Older" pages: the page's `next` as `cursor`), the unseen badge
 * (the page's `unseen`, GET /notifications/counts after a change) and "Mark all seen/read"
 * (POST /notifications/seen|read with no body: every group). Counts pushed over the realtime
 * channel redraw the page (a new event, or a mark from another tab).
 */
import { dataOf, type NotificationGroup } from '../api.js';
import { ago, busy, errorBox, h, replace } from '../dom.js';
import { hrefOf, limitOf } from '../links.js';
import type { ViewRenderer } from './context.js';

export const renderNotifications: ViewRenderer = async ({ session, place, setUnseen, live }, root) => {
  const api = session.client;
  const limit = limitOf(place.params);
  const list = h('ol', { class: 'notifications', 'data-testid': 'notifications' });
  const counts = h('p', { 'data-testid': 'notification-counts' });
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const older = h('button', { type: 'button', 'data-testid': 'older' }, 'Older');
  let next: string | null = null;

  const showCounts = (c: { unseen: number; unread: number }) => {
    replace(counts, `${c.unseen} unseen · ${c.unread} unread`);
    setUnseen(c.unseen);
  };
  const showPage = (page: { items: NotificationGroup[]; next: string | null }) => {
    list.append(...page.items.map((n) => row(session.user, n)));
    next = page.next;
    older.hidden = next === null;
    if (!list.childElementCount) replace(status, h('p', { class: 'muted' }, 'No notifications.'));
  };
  const reload = async () => {
    const page = await dataOf('GET /notifications', api.GET('/notifications', { params: { query: { limit } } }));
    list.replaceChildren();
    showCounts(page);
    showPage(page);
  };
  const mark = (what: 'seen' | 'read') => {
    const button = h('button', { type: 'button', 'data-action': `mark-${what}` }, `Mark all ${what}`);
    button.addEventListener('click', () =>
      busy(button, status, async () => {
        await dataOf(`POST /notifications/${what}`, api.POST(`/notifications/${what}`, {}));
        await reload();
      }),
    );
    return button;
  };
  older.addEventListener('click', () =>
    busy(older, status, async () => {
      if (next === null) return;
      const cursor = next;
      showPage(await dataOf('GET /notifications', api.GET('/notifications', { params: { query: { limit, cursor } } })));
    }),
  );

  replace(root, h('h1', {}, 'Notifications'), counts, h('div', { class: 'toolbar' }, mark('seen'), ' ', mark('read')), status, list, older);
  await reload();
  live.onCounts(() => void reload().catch((error: unknown) => replace(status, errorBox(error))));
};

/** "bob and 2 others started following you", linking the actors to their timelines. */
function row(user: string, n: NotificationGroup): HTMLLIElement {
  const actors = n.actors.slice(0, 3).flatMap((actor, i) => [i ? ', ' : '', h('a', { href: hrefOf({ user, view: 'timeline', of: actor }) }, actor)]);
  const others = n.actorCount - Math.min(n.actors.length, 3);
  return h(
    'li',
    { class: `notification${n.seen ? '' : ' unseen'}${n.read ? '' : ' unread'}`, 'data-id': n.id, 'data-verb': n.verb },
    h('span', { class: 'actors' }, ...actors, others > 0 ? ` and ${others} other${others === 1 ? '' : 's'}` : ''),
    ' ',
    describe(n),
    ' · ',
    h('time', { datetime: n.updatedAt, title: n.updatedAt }, ago(n.updatedAt)),
  );
}

function describe(n: NotificationGroup): string {
  if (n.verb === 'follow') return 'followed you';
  const times = n.activityCount > 1 ? ` (${n.activityCount}×)` : '';
  return `${n.verb} ${n.object}${times}`;
}
