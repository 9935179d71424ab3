/**
 * The console's addresses: every view is a link, `/console/?user=alice&view=timeline&of=bob`, so a
 * page can be bookmarked, reloaded or opened by a test directly. The signed-in user is `user`;
 * `of` names whose timeline, follows or activity a view shows (default: the signed-in user).
 */

export const VIEWS = ['feed', 'ranked', 'timeline', 'follows', 'tags', 'notifications', 'rollups', 'activity'] as const;
export type View = (typeof VIEWS)[number];

export const VIEW_LABELS: Record<View, string> = {
  feed: 'Feed',
  ranked: 'Ranked',
  timeline: 'Timeline',
  follows: 'Follows',
  tags: 'Tags',
  notifications: 'Notifications',
  rollups: 'Rollups',
  activity: 'Activity',
};

/** The views that show someone: they take `of`. */
export const TAKES_OF: ReadonlySet<View> = new Set(['timeline', 'follows', 'activity']);

export interface Place {
  readonly user: string;
  readonly view: View;
  /** Whose page it is (timeline/follows/activity); the signed-in user when absent. */
  readonly of: string;
  /** Every other parameter (limit, series, granularity, from, to, window, tag, feed), as given. */
  readonly params: URLSearchParams;
}

/** Where the browser is; `user` is undefined before sign-in, an unknown view falls back to feed. */
export function placeOf(search: string): Omit<Place, 'user'> & { user: string | undefined } {
  const params = new URLSearchParams(search);
  const user = params.get('user') || undefined;
  const asked = params.get('view') ?? 'feed';
  const view: View = (VIEWS as readonly string[]).includes(asked) ? (asked as View) : 'feed';
  const of = params.get('of') || user || '';
  for (const known of ['user', 'view', 'of']) params.delete(known);
  return { user, view, of, params };
}

/** The link to a view; `of` is left out when it is the signed-in user, and for views without it. */
export function hrefOf(place: { user: string; view: View; of?: string; params?: Record<string, string> }): string {
  const query = new URLSearchParams({ user: place.user, view: place.view });
  if (place.of !== undefined && place.of !== place.user && TAKES_OF.has(place.view)) query.set('of', place.of);
  for (const [name, value] of Object.entries(place.params ?? {})) if (value !== '') query.set(name, value);
  return `${import.meta.env.BASE_URL}?${query}`;
}

/** A page size from `?limit=` (1–100), else the API's default 20. */
export function limitOf(params: URLSearchParams): number {
  const n = Number(params.get('limit'));
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : 20;
}
