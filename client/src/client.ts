import createClient, { type Client } from 'openapi-fetch';
import { TickfeedApiError } from './errors.js';
import { type FetchPage, paginate } from './pages.js';
import type { components, paths } from './schema.js';

export type Activity = components['schemas']['Activity'];

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

/** Page size, and `before` to resume after a cursor. `since` is left out: it pages newer, not older. */
export type FeedItemsQuery = Omit<FeedQuery, 'since'>;
export type TimelineItemsQuery = Omit<TimelineQuery, 'since'>;
/** Page size, and `before` (a page's `next`) to resume after it. */
export type FollowListQuery = NonNullable<FollowersGet['parameters']['query']>;
export type FollowListEntry = NonNullable<FollowersGet['responses'][200]['content']['application/json']['items']>[number];

/** An item of a list whose route is newer than this package's generated types. */
export type JsonObject = Record<string, unknown>;

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
  /** The comments on an activity, paged like the feeds (`{ items, lastRangeKey }`). */
  comments(activityId: string): Items<JsonObject>;
  /** The caller's notifications, paged like the feeds (`{ items, lastRangeKey }`). */
  notifications(): Items<JsonObject>;
}

/**
 * Routes the server gains after schema.d.ts was generated, typed by their paging alone: every
 * tickfeed list answers `{ items, lastRangeKey }` and takes `limit` and `before`.
 */
type FeedPagedRoutes = Record<
  string,
  {
    get: {
      parameters: { query?: { limit?: number; before?: string }; path?: Record<string, string> };
      responses: { 200: { content: { 'application/json': { items: JsonObject[]; lastRangeKey: string | null } } } };
    };
  }
>;

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
  // The same client (and its auth middleware), viewed with routes its types do not know yet.
  const later = api as unknown as Client<FeedPagedRoutes>;

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
  const laterPage =
    (path: string, params: Record<string, string> = {}): FetchPage<JsonObject> =>
    async (before) => {
      const page = await dataOf(
        `GET ${path}`,
        later.GET(path, { params: { path: params, query: before === undefined ? {} : { before } } }),
      );
      return { items: page.items, cursor: page.lastRangeKey };
    };

  return Object.assign(api, {
    feedItems: (query: FeedItemsQuery = {}) => paginate(feedPage(query), query.before),
    timelineItems: (userId: string, query: TimelineItemsQuery = {}) => paginate(timelinePage(userId, query), query.before),
    followers: (userId: string, query: FollowListQuery = {}) => paginate(followPage('followers', userId, query), query.before),
    following: (userId: string, query: FollowListQuery = {}) => paginate(followPage('following', userId, query), query.before),
    comments: (activityId: string) => paginate(laterPage('/activities/{id}/comments', { id: activityId })),
    notifications: () => paginate(laterPage('/notifications')),
  });
}
