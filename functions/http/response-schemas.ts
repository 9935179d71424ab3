/**
 * Response schemas of the feed API (zod 4): documentation only — the code builds the bodies (model/
 * activity.ts, services/…); the integration tests check every response they get against the
 * document made from these (test/support/response-check.ts). Each has an `id`, so the document
 * names it once under `components.schemas` and a typed client gets one type per shape.
 */
import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)
import { NOTIFICATION_KINDS } from '../model/notification.js';
import type { Segment } from '../services/rollups/windows.js';
import { GRANULARITIES } from './schemas.js';

const int = z.number().int();
const isoInstant = z.iso.datetime().describe('RFC 3339, UTC.');

/**
 * The page of every list that is not a feed (services/list-page.ts): `items` and `next`, present
 * on every page and null on the last; `extra` adds fields beside them (a notification page's
 * counts). Feeds answer `Page` (`lastRangeKey`) instead.
 *
 * @example
 *   listPageSchema('CommentPage', commentSchema, 'Newest first.')
 */
export function listPageSchema<T extends z.ZodType, E extends z.ZodRawShape = Record<never, never>>(id: string, item: T, order: string, extra?: E) {
  return z
    .object({
      items: z.array(item).describe(order),
      next: z.string().nullable().describe('Pass as `cursor` for the next page; null when nothing more remains.'),
      ...(extra as E),
    })
    .meta({ id });
}

export const reactionSummarySchema = z
  .object({
    counts: z.record(z.string(), int).describe('Reactions per kind, and `comment`: the number of comments. Kinds at zero are absent.'),
    own: z.array(z.string()).describe("The caller's own reaction kinds, sorted."),
  })
  .meta({ id: 'ReactionSummary' });

export const activitySchema = z
  .object({
    id: z.string().describe('Opaque activity id.'),
    actor: z.string().describe('User id of the author: the JWT `sub` of the poster, or the `actor` an admin token posted as.'),
    verb: z.string(),
    object: z.string().nullable(),
    content: z.string().nullable(),
    attributes: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).nullable(),
    foreignId: z.string().nullable(),
    to: z.array(z.string()).nullable().describe('The users the post was addressed to (each got a notification).'),
    tags: z.array(z.string()).nullable().describe("Its tags: the content's #hashtags and the post's `tags`, each as first written (null: none)."),
    time: z.string().describe("The activity's own time, RFC 3339 (the client's `time`, else when it was posted)."),
    rangeKey: z.string().describe("Position in every feed: MAX − the server's ns clock when it was posted, then a discriminator, as a decimal string."),
    version: int.describe('1 for a post never edited; each edit that changes something adds one. Its ETag is `"<version>"`.'),
    editedAt: z.string().nullable().describe('When it was last edited (RFC 3339, server clock); null until edited.'),
    reactions: reactionSummarySchema.optional().describe('On GET /activities/{id} always; on pages with `?enrich=reactions`.'),
  })
  .meta({ id: 'Activity' });

export const activityVersionSchema = activitySchema
  .omit({ reactions: true })
  .extend({ replacedAt: z.string().describe('When the edit that replaced this version was made.') })
  .meta({ id: 'ActivityVersion' });

export const activityHistoryPageSchema = listPageSchema('ActivityHistoryPage', activityVersionSchema, 'Newest version first.');

export const pageSchema = z
  .object({
    items: z.array(activitySchema).describe('Newest first.'),
    lastRangeKey: z.string().nullable().describe('Pass as `before` for the next (older) page; null when nothing older remains.'),
  })
  .meta({ id: 'Page' });

/** RFC 9457 problem details, as functions/http/problem.ts writes them. */
export const problemSchema = z
  .object({
    type: z.string().describe('`urn:tickfeed:problem:<code>`, or `about:blank` for an unexpected failure (500).'),
    title: z.string(),
    status: int,
    detail: z.string().optional(),
    instance: z.string().optional().describe('The request path.'),
    code: z.string().optional().describe('Stable error code, e.g. `validation_failed`.'),
    errors: z
      .array(z.object({ field: z.string().describe('e.g. `body.verb`, `query.limit`, `path.userId`.'), message: z.string() }))
      .optional()
      .describe('One entry per invalid field (400 only).'),
  })
  .meta({ id: 'Problem' });

/** What API Gateway itself answers (the authorizer, throttling, timeouts): not problem+json. */
export const gatewayMessageSchema = z.object({ message: z.string() }).meta({ id: 'GatewayMessage' });

export const followCountsSchema = z.object({ userId: z.string(), followers: int, following: int }).meta({ id: 'FollowCounts' });

export const followListPageSchema = listPageSchema('FollowListPage', z.object({ userId: z.string() }), 'Newest follow first.');

export const tagFollowPageSchema = listPageSchema(
  'TagFollowPage',
  z.object({ tag: z.string().describe('As the caller wrote it when following.') }),
  'By tag (NFKC, lower case).',
);

export const trendingSchema = z
  .object({
    window: z.enum(['1h', '24h']),
    from: z.string().describe('Start of the period counted (RFC 3339): the current UTC hour or day.'),
    tags: z
      .array(z.object({ tag: z.string().describe('As first written in the period.'), authors: int.describe('Distinct authors who used it in the period.') }))
      .describe('Most distinct authors first (at most 50).'),
  })
  .meta({ id: 'TrendingTags' });

export const rollupSeriesSchema = z
  .object({
    name: z.string(),
    granularity: z.enum(GRANULARITIES),
    points: z
      .array(z.object({ t: isoInstant.describe('Start of the interval.'), value: z.number() }))
      .describe('Oldest first; intervals without data are absent.'),
  })
  .meta({ id: 'RollupSeries' });

export const activityWindowSchema = z
  .object({
    userId: z.string(),
    windowSeconds: int,
    buckets: z.array(z.object({ start: isoInstant, count: int })).describe('Oldest first, empty ones included.'),
    total: int,
    segment: z.enum(['power', 'casual', 'inactive'] as const satisfies readonly Segment[]),
  })
  .meta({ id: 'ActivityWindow' });

export const healthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

/** This document (its top level; the rest is OpenAPI 3.1's own schema). */
export const openApiSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })
  .meta({ id: 'OpenApiDocument' });

export const commentSchema = z
  .object({
    id: z.string().describe('Comment id, unique within its activity.'),
    actor: z.string(),
    text: z.string(),
    time: isoInstant.describe('When it was posted (server clock).'),
  })
  .meta({ id: 'Comment' });

export const commentPageSchema = listPageSchema('CommentPage', commentSchema, 'Newest first.');

export const notificationCountsSchema = z
  .object({ unseen: int.describe('Groups not yet seen.'), unread: int.describe('Groups not yet read.') })
  .meta({ id: 'NotificationCounts' });

export const notificationGroupSchema = z
  .object({
    id: z.string().describe('Group id: kind + verb + object + UTC day (pass it to /notifications/seen or /read).'),
    kind: z
      .enum(NOTIFICATION_KINDS)
      .describe(
        'How it came about: tickfeed saw a follow, a reaction, a comment or a mention — or `to`: an activity addressed to the recipient, whose verb and object are whatever its sender posted (never merged with the other kinds) — or `edit`: an activity the recipient reacted to or commented on was edited (verb `edit`, object the activity; one group per activity and day).',
      ),
    verb: z.string().describe('`follow`, `mention`, `comment`, `edit`, a reaction kind, or the verb of an activity addressed with `to`.'),
    object: z.string().describe("The followee, the activity reacted to / commented on / mentioning, or the addressed activity's object."),
    actorCount: int.describe('Distinct actors.'),
    actors: z.array(z.string()).describe('Up to 5, newest first.'),
    activityCount: int.describe('Events in the group (one actor counts at most 100 a day).'),
    updatedAt: isoInstant,
    seen: z.boolean(),
    read: z.boolean(),
  })
  .meta({ id: 'NotificationGroup' });

export const notificationPageSchema = listPageSchema('NotificationPage', notificationGroupSchema, 'Most recently updated first.', {
  unseen: int.describe('Groups not yet seen (as GET /notifications/counts).'),
  unread: int.describe('Groups not yet read.'),
});

export const aggregatedGroupSchema = z
  .object({
    id: z.string().describe('Range key of the newest activity in the group.'),
    actor: z.string(),
    verb: z.string(),
    activityCount: int,
    activities: z.array(activitySchema).describe('Up to 5, newest first.'),
    from: isoInstant.describe('When the oldest member was posted.'),
    to: isoInstant.describe('When the newest member was posted.'),
  })
  .meta({ id: 'AggregatedGroup' });

export const aggregatedPageSchema = z
  .object({
    items: z.array(aggregatedGroupSchema).describe('Newest first.'),
    lastRangeKey: z.string().nullable().describe("Range key of the page's oldest member: pass as `before`; null at the end."),
  })
  .meta({ id: 'AggregatedPage' });

/** An entry of a mute or block list: null names a user who was erased (the control stays in force should they come back). */
const controlEntry = z.object({
  userId: z.string().nullable().describe('null: a user who was erased; the mute or block stays in force should the same id come back.'),
});

export const controlListPageSchema = listPageSchema('UserListPage', controlEntry, 'Alphabetical by user id; erased users last.');

const userRef = z.object({ userId: z.string() });

export const exportPartSchema = z
  .object({
    userId: z.string(),
    profile: z.object({ followers: int, following: int }).nullable().describe('First part only.'),
    activities: z.array(activitySchema).describe("The user's own activities, newest first."),
    following: z.array(userRef),
    followers: z.array(userRef),
    reactions: z.array(z.object({ activityId: z.string(), kinds: z.array(z.string()) })).describe('Their reactions to activities.'),
    comments: z.array(commentSchema.extend({ activityId: z.string() })).describe('Their comments.'),
    notifications: z.array(notificationGroupSchema),
    mutes: z.array(controlEntry),
    blocks: z.array(controlEntry),
    followedTags: z.array(z.object({ tag: z.string() })).describe('The tags they follow, as they wrote them.'),
    activityWindow: z
      .object({ buckets: z.array(z.object({ start: isoInstant, count: int })), total: int, segment: z.enum(['power', 'casual', 'inactive']) })
      .nullable()
      .describe('First part only.'),
    next: z.string().nullable().describe('Pass as `cursor` for the next part; null on the last.'),
  })
  .meta({ id: 'ExportPart' });

export const bulkFollowsResultSchema = z
  .object({
    created: int.describe('Follows this batch created (a retry of a failed call counts what the failed call began).'),
    existing: int.describe('Follows that already stood (an edge repeated in the batch counts here once more).'),
    skipped: z
      .array(
        z.object({
          follower: z.string(),
          followee: z.string(),
          reason: z
            .enum(['blocked', 'erased', 'limit'])
            .describe('`blocked`: the followee blocked the follower; `erased`: either user was erased; `limit`: the follower follows MAX_FOLLOWING users.'),
        }),
      )
      .describe('Follows not made, and why.'),
  })
  .meta({ id: 'BulkFollowsResult' });

export const bulkActivitiesResultSchema = z
  .object({
    items: z
      .array(
        z.object({
          id: z.string().describe('The activity id.'),
          status: z
            .union([z.literal(201), z.literal(200)])
            .describe(
              '201: created; 200: its foreignId was posted before — its `content`, `object` and `attributes` were updated to the ones given (an edit; nothing written when they were the same).',
            ),
          version: int.describe('The version the activity is at now (1: never edited).'),
        }),
      )
      .describe('One per activity, in the order given.'),
  })
  .meta({ id: 'BulkActivitiesResult' });
