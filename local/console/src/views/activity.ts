/**
 * A user's recent-activity window (GET /users/{userId}/activity): one bar per bucket, oldest
 * first, with the total and the segment (power / casual / inactive). Another user's window needs
 * the admin scope, so it is read with the session's admin client. `&window=6h` asks for a shorter one.
 */
import { dataOf } from '../api.js';
import { h, replace } from '../dom.js';
import type { ViewRenderer } from './context.js';

export const renderActivity: ViewRenderer = async ({ session, place }, root) => {
  const userId = place.of;
  const client = userId === session.user ? session.client : session.admin;
  const windowParam = place.params.get('window');
  const win = await dataOf(
    `GET /users/${userId}/activity`,
    client.GET('/users/{userId}/activity', { params: { path: { userId }, query: windowParam ? { window: windowParam } : {} } }),
  );
  const peak = Math.max(1, ...win.buckets.map((b) => b.count));
  const bars = win.buckets.map((b) => {
    const fill = h('div', { class: 'fill' });
    // Through the CSSOM: the console's CSP refuses style attributes.
    fill.style.height = `${(100 * b.count) / peak}%`;
    return h('div', { class: 'bar', title: `${b.start}: ${b.count}`, 'data-count': b.count }, fill, h('span', { class: 'tick' }, b.start.slice(11, 16)));
  });
  replace(
    root,
    h('h1', {}, userId === session.user ? 'Your activity' : `${userId}'s activity`),
    h(
      'p',
      {},
      h('span', { class: `segment segment-${win.segment}`, 'data-testid': 'segment' }, win.segment),
      ` ${win.total} activities in the last ${hours(win.windowSeconds)}`,
    ),
    h('div', { class: 'bars', 'data-testid': 'activity-bars' }, ...bars),
  );
};

const hours = (seconds: number) => (seconds % 3600 === 0 ? `${seconds / 3600} h` : `${Math.round(seconds / 60)} min`);
