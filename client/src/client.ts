import createClient, { type Client } from 'openapi-fetch';
import { TickfeedApiError } from './errors.js';
import { type FetchPage, paginate } from './pages.js';
import type { components, paths } from './schema.js';

export type Activity = components['schemas']['Activity'];
export type Comment = components['schemas']['Comment'];
export type NotificationGroup = components['schemas']['NotificationGroup'];
export type AggregatedGroup = components['schemas']['AggregatedGroup'];

/** A bearer token, or a function returning the current one: called before every request. */
export type TokenSource = string | (() => string | Promise<string>);

export interface TickfeedClientOptions {
  /** The API's root, e.g. `http://127.0.0.1:3000` locally or the stack's API URL. */
  baseUrl: string;
  token: TokenSource;
  /** A fetch to use instead of the global one (instrumentation, tests). */
  fetch?: (request: Request) => Promise<Response>;
}

type FeedQuery = NonNullable<paths['/feed']['get']['parameters']['query']>;
type TimelineQuery = NonNullable<paths['/users/{userId}/activities']['get']['parameters']['query']>;
type FollowersGet = paths['/users/{userId}/followers']['get'];
type QueryOf<Get extends { parameters: { query?: unknown } }> = NonNullable<Get['parameters']['query']>;

/** Page size, and `before` to resume after a cursor. `since` is left out: it pages newer, not older. */
export type FeedItemsQuery = Omit<FeedQuery, 'since'>;
export type TimelineItemsQuery = Omit<TimelineQuery, 'since'>;
/** Page size, and `before` (a page's `next`) to resume after it. */
export type FollowListQuery = NonNullable<FollowersGet['parameters']['query']>;
export type FollowListEntry = NonNullable<FollowersGet['responses'][200]['content']['application/json']['items']>[number];
/** Page size, and `before` (a page's `lastRangeKey`) to resume after it. */
export type CommentsQuery = QueryOf<paths['/activities/{id}/comments']['get']>;
export type NotificationsQuery = QueryOf<paths['/notifications']['get']>;
export type AggregatedFeedQuery = QueryOf<paths['/feed/aggregated']['get']>;

type Items<T> = AsyncGenerator<T, void, undefined>;

/** The openapi-fetch client for every route, plus iterators that walk a list page by page. */
export interface TickfeedClient extends Client<paths> {
  /** The caller's home feed, newest first. */
  feedItems(query?: FeedItemsQuery): Items<Activity>;
  /** A user's own posts, newest first. */
  timelineItems(userId: string, query?: TimelineItemsQuery): Items<Activity>;
  /** Who follows `userId`, newest follow first. */
  followers(userId: string, query?: FollowListQuery): Items<FollowListEntry>;
  /** Whom `userId` follows, newest follow first. */
  following(userId: string, query?: FollowListQuery): Items<FollowListEntry>;
  /** The comments on an activity, newest first. */
  comments(activityId: string, query?: CommentsQuery): Items<Comment>;
  /** The caller's notification groups, most recently updated first (the counts: `GET /notifications/counts`). */
  notifications(query?: NotificationsQuery): Items<NotificationGroup>;
  /** The caller's home feed folded into groups (one actor, one verb, one UTC day), newest first. */
  aggregatedFeed(query?: AggregatedFeedQuery): Items<AggregatedGroup>;
}

/** The data of a 2xx answer; anything else throws a TickfeedApiError carrying the body. */
async function dataOf<T>(
  label: string,
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw new TickfeedApiError(response.status, label, error);
  return data;
}

/** `{ ...query, before }` without a `before: undefined` key. */
const withBefore = <Q extends object>(query: Q, before: string | undefined) =>
  before === undefined ? query : { ...query, before };

/**
 * A client for the tickfeed API, sending `authorization: Bearer <token>` with every request.
 *
 * @example
 * const client = createTickfeedClient({ baseUrl: 'http://127.0.0.1:3000', token: () => session.token() });
 * const { data } = await client.GET('/feed', { params: { query: { limit: 20 } } });
 * for await (const activity of client.feedItems()) console.log(activity.verb, activity.time);
 */
export function createTickfeedClient(options: TickfeedClientOptions): TickfeedClient {
  const { baseUrl, token } = options;
  const api = createClient<paths>({ baseUrl, fetch: options.fetch });
  api.use({
    async onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${typeof token === 'string' ? token : await token()}`);
      return request;
    },
  });
  const feedPage =
    (query: FeedItemsQuery): FetchPage<Activity> =>
    async (before) => {
      const page = await dataOf('GET /feed', api.GET('/feed', { params: { query: withBefore(query, before) } }));
      return { items: page.items, cursor: page.lastRangeKey };
    };
  const timelinePage =
    (userId: string, query: TimelineItemsQuery): FetchPage<Activity> =>
    async (before) => {
      const page = await dataOf(
        `GET /users/${userId}/activities`,
        api.GET('/users/{userId}/activities', { params: { path: { userId }, query: withBefore(query, before) } }),
      );
      return { items: page.items, cursor: page.lastRangeKey };
    };
  const followPage =
    (list: 'followers' | 'following', userId: string, query: FollowListQuery): FetchPage<FollowListEntry> =>
    async (before) => {
      const page = await dataOf(
        `GET /users/${userId}/${list}`,
        api.GET(`/users/{userId}/${list}`, { params: { path: { userId }, query: withBefore(query, before) } }),
      );
      return { items: page.items ?? [], cursor: page.next };
    };
  const commentPage =
    (id: string, query: CommentsQuery): FetchPage<Comment> =>
    async (before) => {
      const page = await dataOf(
        `GET /activities/${id}/comments`,
        api.GET('/activities/{id}/comments', { params: { path: { id }, query: withBefore(query, before) } }),
      );
      return { items: page.items, cursor: page.lastRangeKey };
    };
  const notificationPage =
    (query: NotificationsQuery): FetchPage<NotificationGroup> =>
    async (before) => {
      const page = await dataOf('GET /notifications', api.GET('/notifications', { params: { query: withBefore(query, before) } }));
      return { items: page.items, cursor: page.lastRangeKey };
    };
  const aggregatedPage =
    (query: AggregatedFeedQuery): FetchPage<AggregatedGroup> =>
    async (before) => {
      const page = await dataOf('GET /feed/aggregated', api.GET('/feed/aggregated', { params: { query: withBefore(query, before) } }));
      return { items: page.items, cursor: page.lastRangeKey };
    };

  return Object.assign(api, {
    feedItems: (query: FeedItemsQuery = {}) => paginate(feedPage(query), query.before),
    timelineItems: (userId: string, query: TimelineItemsQuery = {}) => paginate(timelinePage(userId, query), query.before),
    followers: (userId: string, query: FollowListQuery = {}) => paginate(followPage('followers', userId, query), query.before),
    following: (userId: string, query: FollowListQuery = {}) => paginate(followPage('following', userId, query), query.before),
    comments: (activityId: string, query: CommentsQuery = {}) => paginate(commentPage(activityId, query), query.before),
    notifications: (query: NotificationsQuery = {}) => paginate(notificationPage(query), query.before),
    aggregatedFeed: (query: AggregatedFeedQuery = {}) => paginate(aggregatedPage(query), query.before),
  });
}
