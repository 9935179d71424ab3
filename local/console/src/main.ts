/**
 * The tickfeed web console (local only, served by `npm start` at /console). Each view is a page of
 * its own (links.ts); this file signs in, draws the navigation, renders the view the URL names and
 * then opens the realtime channel (live.ts): the badge and the feed update as things happen.
 */
import './style.css';
import { errorBox, h, replace } from './dom.js';
import { dataOf } from './api.js';
import { hrefOf, placeOf, type View, VIEW_LABELS, VIEWS } from './links.js';
import { createLive, type LiveStatus } from './live.js';
import { loadConfig, type Session, signIn } from './session.js';
import { renderActivity } from './views/activity.js';
import type { ViewRenderer } from './views/context.js';
import { renderFeed } from './views/feed.js';
import { renderFollows } from './views/follows.js';
import { renderNotifications } from './views/notifications.js';
import { renderRanked } from './views/ranked.js';
import { renderRollups } from './views/rollups.js';
import { renderTags } from './views/tags.js';
import { renderTimeline } from './views/timeline.js';

const RENDERERS: Record<View, ViewRenderer> = {
  feed: renderFeed,
  ranked: renderRanked,
  timeline: renderTimeline,
  follows: renderFollows,
  tags: renderTags,
  notifications: renderNotifications,
  rollups: renderRollups,
  activity: renderActivity,
};

const top = document.getElementById('top')!;
const root = document.getElementById('view')!;

async function start(): Promise<void> {
  const place = placeOf(window.location.search);
  if (place.user === undefined) {
    replace(top, h('strong', { class: 'brand' }, 'tickfeed'));
    replace(root, h('h1', {}, 'Sign in'), h('p', { class: 'muted' }, 'Any user id: the local stack mints its token.'), signInForm('alice'));
    root.dataset.ready = 'true';
    return;
  }
  const session = signIn(place.user);
  const badge = h('span', { class: 'badge', 'data-testid': 'unseen-badge', hidden: true });
  const setUnseen = (unseen: number) => {
    badge.textContent = String(unseen);
    badge.hidden = unseen === 0;
  };
  const liveStatus = h('span', { class: 'live', 'data-testid': 'live', 'data-status': 'connecting', title: 'realtime updates' });
  replace(top, nav(session, place.view, badge), liveStatus, signInForm(session.user));
  document.title = `${VIEW_LABELS[place.view]} · ${session.user} · tickfeed`;
  let pushed = false; // counts pushed since: newer than what the first read may still bring
  // The notifications view reads the counts itself (and changes them): no second, racing read.
  if (place.view !== 'notifications') void refreshBadge(session, (unseen) => pushed || setUnseen(unseen));
  const live = createLive();
  try {
    const config = await loadConfig();
    await RENDERERS[place.view]({ session, place: { ...place, user: place.user }, config, setUnseen, live }, root);
  } catch (error) {
    replace(root, h('h1', {}, VIEW_LABELS[place.view]), errorBox(error));
  }
  root.dataset.ready = 'true'; // the view has drawn (or failed): what browser tests wait for
  live.start(session, {
    counts: ({ unseen }) => {
      pushed = true;
      setUnseen(unseen);
    },
    status: (status) => showLiveStatus(liveStatus, status),
  });
}

const LIVE_TEXT: Record<LiveStatus, string> = { connecting: 'connecting…', open: 'live', caughtUp: 'live', closed: 'reconnecting…' };

/** The channel's state in the header; `data-status` is what browser tests wait for (`caughtUp`). */
function showLiveStatus(el: HTMLElement, status: LiveStatus): void {
  el.dataset.status = status;
  el.textContent = LIVE_TEXT[status];
}

function nav(session: Session, current: View, badge: HTMLElement): HTMLElement {
  const links = VIEWS.map((view) =>
    h(
      'a',
      { href: hrefOf({ user: session.user, view }), class: view === current ? 'current' : undefined, 'aria-current': view === current ? 'page' : undefined },
      VIEW_LABELS[view],
      view === 'notifications' ? badge : null,
    ),
  );
  return h('nav', {}, h('strong', { class: 'brand' }, 'tickfeed'), ...links);
}

/** Switching user is a link like any other: a GET form to `?user=…`. */
function signInForm(current: string): HTMLFormElement {
  return h(
    'form',
    { method: 'get', action: import.meta.env.BASE_URL, class: 'sign-in' },
    h('label', {}, 'Signed in as ', h('input', { name: 'user', value: current, required: true, size: 12, 'aria-label': 'user id' })),
    h('button', { type: 'submit' }, 'Switch'),
  );
}

/** The unseen count for the badge; a failure only warns: the badge is not worth failing a view for. */
async function refreshBadge(session: Session, setUnseen: (n: number) => void): Promise<void> {
  try {
    const counts = await dataOf('GET /notifications/counts', session.client.GET('/notifications/counts'));
    setUnseen(counts.unseen);
  } catch (error) {
    console.warn('no notification counts:', error);
  }
}

void start();
