/**
 * @tickfeed/client: a typed client for the tickfeed API.
 *
 * `createTickfeedClient` returns an openapi-fetch client typed by the API's OpenAPI document
 * (schema.d.ts), plus async iterators that walk the paged lists: feeds by `before`/`lastRangeKey`,
 * every other list by `cursor`/`next`.
 */
export {
  type Activity,
  type ActivityPatch,
  type ActivityVersion,
  type AggregatedFeedQuery,
  type AggregatedGroup,
  type Comment,
  createTickfeedClient,
  type FeedInteraction,
  type FeedItemsQuery,
  type FeedListEntry,
  type FollowedTag,
  type FollowListEntry,
  type ListQuery,
  type NotificationGroup,
  type RankedActivity,
  type RankedFeedQuery,
  type TagItemsQuery,
  type TickfeedClient,
  type TickfeedClientOptions,
  type TimelineItemsQuery,
  type TokenSource,
  type TrendingTags,
  type UserListEntry,
} from './client.js';
export { type Problem, TickfeedApiError } from './errors.js';
export { type FetchPage, type PageOf, paginate } from './pages.js';
export { CATCH_UP_MARGIN_MS, type RealtimeMessage, type SubscribeOptions, type Subscription, subscribe, type WebSocketLike } from './realtime.js';
export type { components, paths } from './schema.js';
