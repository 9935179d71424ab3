import createClient, { type Client } from 'openapi-fetch';
import { TickfeedApiError } from './errors.js';
import { paginate } from './pages.js';
import type { components, paths } from './schema.js';

export type Activity = components['schemas']['Activity'];
export type Comment = components['schemas']['Comment'];
export type NotificationGroup = components['schemas']['NotificationGroup'];
export type AggregatedGroup = components['schemas']['AggregatedGroup'];
export type ActivityPatch = components['schemas']['ActivityPatch'];
export type ActivityVersion = components['schemas']['ActivityVersion'];
/** `GET /tags/trending`: the tags most distinct authors used in the current UTC hour or day. */
export type TrendingTags = components['schemas']['TrendingTags'];

/** A bearer token, or a function returning the current one: called before every request. */
export type TokenSource = string | (() => string | Promise<string>);

export interface TickfeedClientOptions {
  /** The API's root, e.g. `http://127.0.0.1:3000` locally or the stack's API URL. */
  baseUrl: string;
  token: TokenSource;
  /** A fetch to use instead of the global one (instrumentation, tests). */
  fetch?: (request: Request) => Promise<Response>;
}

type QueryOf<Get extends { parameters: { query?: unknown } }> = NonNullable<Get['parameters']['query']>;
type ItemOf<Get extends { responses: { 200: { content: { 'application/json': { items: unknown[] } } } } }> =
  Get['responses'][200]['content']['application/json']['items'][number];

/** Page size, and `before` to resume after a cursor. `since` is left out: it pages newer, not older. */
export type FeedItemsQuery = Omit<QueryOf<paths['/feed']['get']>, 'since'>;
export type TimelineItemsQuery = Omit<QueryOf<paths['/users/{userId}/activities']['get']>, 'since'>;
export type TagItemsQuery = Omit<QueryOf<paths['/tags/{tag}/activities']['get']>, 'since'>;
/** Page size, and `before` (a page's `lastRangeKey`) to resume after it. */
export type AggregatedFeedQuery = QueryOf<paths['/feed/aggregated']['get']>;
/**
 * Page size, and `cursor` (a page's `next`) to resume after it: the one query of every list that is
 * not a feed (followers, following, comments, notifications, mutes, blocks).
 */
export type ListQuery = QueryOf<paths['/mutes']['get']>;
export type FollowListEntry = ItemOf<paths['/users/{userId}/followers']['get']>;
/** A muted or blocked user; `userId` null: one who was erased. */
export type UserListEntry = ItemOf<paths['/mutes']['get']>;
/** A tag the caller follows, as they wrote it. */
export type FollowedTag = ItemOf<paths['/me/tags']['get']>;
/** A ranked feed the caller owns (an admin: a shared one). */
export type FeedListEntry = ItemOf<paths['/feeds']['get']>;
/** Page size, `cursor` (a page's `next`), `explain` (the variables behind each score), `enrich` (`reactions`). */
export type RankedFeedQuery = QueryOf<paths['/feeds/{feedId}/activities']['get']>;
/** An activity of a ranked feed, with its `score` (and `variables` with `explain`); of a generator feed, with the generator's `reason`. */
export type RankedActivity = ItemOf<paths['/feeds/{feedId}/activities']['get']>;
/** Feedback on a ranked feed's post: `seen`, `less` or `more`. */
export type FeedInteraction = components['schemas']['FeedInteractions']['items'][number];

type Items<T> = AsyncGenerator<T, void, undefined>;

/** The openapi-fetch client for every route, plus iterators that walk a list page by page. */
export interface TickfeedClient extends Client<paths> {
  /** The caller's home feed, newest first. */
  feedItems(query?: FeedItemsQuery): Items<Activity>;
  /** A user's own posts, newest first. */
  timelineItems(userId: string, query?: TimelineItemsQuery): Items<Activity>;
  /** The caller's home feed folded into groups (one actor, one verb, one UTC day), newest first. */
  aggregatedFeed(query?: AggregatedFeedQuery): Items<AggregatedGroup>;
  /** Who follows `userId`, newest follow first. */
  followers(userId: string, query?: ListQuery): Items<FollowListEntry>;
  /** Whom `userId` follows, newest follow first. */
  following(userId: string, query?: ListQuery): Items<FollowListEntry>;
  /**
   * Edit one of the caller's activities: a JSON Merge Patch of `content`, `object`, `attributes`
   * (`null` removes). With `ifMatch` (an ETag: `"<version>"`, e.g. from a read activity's
   * version) the edit happens only at that version, else a TickfeedApiError with status 412.
   */
  updateActivity(id: string, patch: ActivityPatch, opts?: { ifMatch?: string }): Promise<Activity>;
  /** An activity's earlier versions, newest first (the last 20 are kept). */
  activityHistory(id: string, query?: ListQuery): Items<ActivityVersion>;
  /** The comments on an activity, newest first. */
  comments(activityId: string, query?: ListQuery): Items<Comment>;
  /** The caller's notification groups, most recently updated first (the counts: `GET /notifications/counts`). */
  notifications(query?: ListQuery): Items<NotificationGroup>;
  /** Whom the caller muted, by user id. */
  mutes(query?: ListQuery): Items<UserListEntry>;
  /** Whom the caller blocked, by user id. */
  blocks(query?: ListQuery): Items<UserListEntry>;
  /** A tag's activities (`#` optional, any case), newest first, without authors the caller muted or blocked. */
  tagItems(tag: string, query?: TagItemsQuery): Items<Activity>;
  /** The tags the caller follows (follow one: `PUT /following/tags/{tag}`; unfollow: `DELETE`). */
  followedTags(query?: ListQuery): Items<FollowedTag>;
  /** The caller's ranked feeds (an admin: the shared ones), by feed id (docs/ranked-feeds.md). */
  feeds(query?: ListQuery): Items<FeedListEntry>;
  /** A ranked feed, highest score first: one ranking, paged by its snapshot (no repeat, no skip); a generator feed in its generator's order. */
  rankedFeed(feedId: string, query?: RankedFeedQuery): Items<RankedActivity>;
  /** Feedback on a ranked feed's posts; applies from the next first page. */
  sendInteractions(feedId: string, items: FeedInteraction[]): Promise<void>;
}

/** What openapi-fetch resolves to: `data` on a 2xx, `error` otherwise. */
type Answer<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/** The data of a 2xx answer; anything else throws a TickfeedApiError carrying the body. */
async function dataOf<T>(label: string, call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw new TickfeedApiError(response.status, label, error);
  return data;
}

/** `{ ...query, [name]: cursor }`, without a key for an undefined cursor. */
const withCursor = <Q extends object>(query: Q, name: 'before' | 'cursor', cursor: string | undefined): Q =>
  cursor === undefined ? query : { ...query, [name]: cursor };

/**
 * Every item of a feed: pages `{ items, lastRangeKey }`, each `lastRangeKey` passed back as `before`.
 * `get` sends one request with the query it is given.
 */
function feedItems<T, Q extends { before?: string }>(
  label: string,
  query: Q,
  get: (query: Q) => Answer<{ items: T[]; lastRangeKey: string | null }>,
): Items<T> {
  return paginate(async (before) => {
    const page = await dataOf(label, get(withCursor(query, 'before', before)));
    return { items: page.items, cursor: page.lastRangeKey };
  }, query.before);
}

/**
 * Every item of a list that is not a feed: pages `{ items, next }`, each `next` passed back as
 * `cursor` (the server's one list contract). `get` sends one request with the query it is given.
 */
function listItems<T, Q extends ListQuery = ListQuery>(label: string, query: Q, get: (query: Q) => Answer<{ items: T[]; next: string | null }>): Items<T> {
  return paginate(async (cursor) => {
    const page = await dataOf(label, get(withCursor(query, 'cursor', cursor)));
    return { items: page.items, cursor: page.next };
  }, query.cursor);
}

/**
 * A client for the tickfeed API, sending `authorization: Bearer <token>` with every request.
 *
 * @example
 * const client = createTickfeedClient({ baseUrl: 'http://127.0.0.1:3000', token: () => session.token() });
 * const { data } = await client.GET('/feed', { params: { query: { limit: 20 } } });
 * for await (const activity of client.feedItems()) console.log(activity.verb, activity.time);
 * await client.PUT('/following/tags/{tag}', { params: { path: { tag: 'café' } } });
 * const { data: trending } = await client.GET('/tags/trending', { params: { query: { window: '24h' } } });
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
  return Object.assign(api, {
    feedItems: (query: FeedItemsQuery = {}) => feedItems('GET /feed', query, (q) => api.GET('/feed', { params: { query: q } })),
    timelineItems: (userId: string, query: TimelineItemsQuery = {}) =>
      feedItems(`GET /users/${userId}/activities`, query, (q) => api.GET('/users/{userId}/activities', { params: { path: { userId }, query: q } })),
    aggregatedFeed: (query: AggregatedFeedQuery = {}) => feedItems('GET /feed/aggregated', query, (q) => api.GET('/feed/aggregated', { params: { query: q } })),
    followers: (userId: string, query: ListQuery = {}) =>
      listItems(`GET /users/${userId}/followers`, query, (q) => api.GET('/users/{userId}/followers', { params: { path: { userId }, query: q } })),
    following: (userId: string, query: ListQuery = {}) =>
      listItems(`GET /users/${userId}/following`, query, (q) => api.GET('/users/{userId}/following', { params: { path: { userId }, query: q } })),
    updateActivity: (id: string, patch: ActivityPatch, opts: { ifMatch?: string } = {}) =>
      dataOf(
        `PATCH /activities/${id}`,
        api.PATCH('/activities/{id}', {
          params: { path: { id }, header: opts.ifMatch === undefined ? {} : { 'If-Match': opts.ifMatch } },
          body: patch,
          headers: { 'content-type': 'application/merge-patch+json' },
        }),
      ),
    activityHistory: (id: string, query: ListQuery = {}) =>
      listItems(`GET /activities/${id}/history`, query, (q) => api.GET('/activities/{id}/history', { params: { path: { id }, query: q } })),
    comments: (id: string, query: ListQuery = {}) =>
      listItems(`GET /activities/${id}/comments`, query, (q) => api.GET('/activities/{id}/comments', { params: { path: { id }, query: q } })),
    notifications: (query: ListQuery = {}) => listItems('GET /notifications', query, (q) => api.GET('/notifications', { params: { query: q } })),
    mutes: (query: ListQuery = {}) => listItems('GET /mutes', query, (q) => api.GET('/mutes', { params: { query: q } })),
    blocks: (query: ListQuery = {}) => listItems('GET /blocks', query, (q) => api.GET('/blocks', { params: { query: q } })),
    tagItems: (tag: string, query: TagItemsQuery = {}) =>
      feedItems(`GET /tags/${tag}/activities`, query, (q) => api.GET('/tags/{tag}/activities', { params: { path: { tag }, query: q } })),
    followedTags: (query: ListQuery = {}) => listItems('GET /me/tags', query, (q) => api.GET('/me/tags', { params: { query: q } })),
    feeds: (query: ListQuery = {}) => listItems('GET /feeds', query, (q) => api.GET('/feeds', { params: { query: q } })),
    rankedFeed: (feedId: string, query: RankedFeedQuery = {}) =>
      listItems(`GET /feeds/${feedId}/activities`, query, (q) => api.GET('/feeds/{feedId}/activities', { params: { path: { feedId }, query: q } })),
    sendInteractions: async (feedId: string, items: FeedInteraction[]) => {
      const { response, error } = await api.POST('/feeds/{feedId}/interactions', { params: { path: { feedId } }, body: { items } });
      if (!response.ok) throw new TickfeedApiError(response.status, `POST /feeds/${feedId}/interactions`, error);
    },
  });
}
