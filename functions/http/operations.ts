/**
 * The request and response schemas of every route, keyed by the route's operation id (declared,
 * with its method, path, function, access and rate class, in lib/defs/routes.ts; the `satisfies`
 * below fails to compile while an id is missing or unknown). The HTTP edge validates requests
 * with these very schemas before a route's function runs (handler.ts, parse-request.ts) and
 * openapi-document.ts generates `GET /openapi.json` from them, so the document and the checks cannot drift
 * apart.
 *
 * An entry:
 *
 *   listFollowers: {
 *     summary: 'Followers, newest follow first.',
 *     path: userIdPath,                              // z.strictObject, one field per {param}
 *     query: listQuery,                              // z.object of optional string fields
 *     // body: postActivityBody,                     // JSON body, at most LIMITS.bodyBytes
 *     responses: { 200: { description: 'A page.', schema: followListPageSchema } },
 *     problems: { 400: 'Bad limit or cursor.' },     // problem+json statuses the code raises, and when
 *   },
 *
 * What an entry does not say, openapi-document.ts derives: security and 401 from the route's access, the
 * authorizer's 403 (and the function's, which checks the scope too) from `admin` access, 413 and
 * 415 from `body`, and on every operation API Gateway's 429 and 503 and the unexpected 500.
 * Schemas that should be named types carry `.meta({ id })`; request ones live in schemas.ts,
 * response ones in response-schemas.ts.
 * Query values arrive as strings, so query fields are strings (or string enums) that the handler
 * converts; a handler's checks beyond the schema (e.g. a window longer than what is kept) are
 * described under `problems[400]`.
 *
 * Two paging contracts, no more: feeds (`pageQuery`, `aggregatedQuery`, `missedQuery`) answer
 * `{ items, lastRangeKey }` and take `before`/`since`; every other list takes `listQuery`
 * (`limit`, `cursor`) and answers `listPageSchema`'s `{ items, next }` (services/list-page.ts).
 */
import type { z } from 'zod';
import type { OperationId } from '../../lib/defs/routes.js';
import { ADMIN_SCOPE } from '../../lib/defs/scopes.js';
import {
  feedDefinitionBody,
  feedDefinitionSchema,
  feedIdPath,
  feedListPageSchema,
  interactionsBody,
  rankedPageSchema,
  rankedQuery,
} from './ranked-feed-schemas.js';
import { missedPageSchema, missedQuery, realtimeInfoSchema } from './realtime-schemas.js';
import {
  exportPartSchema,
  controlListPageSchema,
  aggregatedPageSchema,
  commentPageSchema,
  commentSchema,
  notificationCountsSchema,
  notificationPageSchema,
  activityWindowSchema,
  activitySchema,
  activityHistoryPageSchema,
  followCountsSchema,
  followListPageSchema,
  tagFollowPageSchema,
  trendingSchema,
  bulkActivitiesResultSchema,
  bulkFollowsResultSchema,
  healthSchema,
  openApiSchema,
  pageSchema,
  rollupSeriesSchema,
} from './response-schemas.js';
import {
  exportQuery,
  aggregatedQuery,
  commentPath,
  listQuery,
  markNotificationsBody,
  postCommentBody,
  reactionPath,
  activityIdPath,
  activityWindowQuery,
  BULK_BODY_BYTES,
  bulkActivitiesBody,
  bulkFollowsBody,
  pageQuery,
  postActivityBody,
  editActivityBody,
  rollupPath,
  rollupQuery,
  tagPath,
  trendingQuery,
  userIdPath,
} from './schemas.js';

export type SuccessStatus = 200 | 201 | 202 | 204;
/** Problem statuses the code behind a route raises; the others are derived (see above). */
export type ProblemStatus = 400 | 403 | 404 | 409 | 412 | 502;

export interface ResponseSpec {
  readonly description: string;
  /** The JSON body; none for a bodiless response (204). */
  readonly schema?: z.ZodType;
  /** Headers always sent with it: name → description. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface OperationSpec {
  readonly summary: string;
  readonly description?: string;
  readonly path?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** An empty body is allowed (the handler gets `body: undefined`). */
  readonly bodyOptional?: boolean;
  /** The largest body accepted, in bytes (default LIMITS.bodyBytes); over it, 413. */
  readonly bodyBytes?: number;
  /** The body's accepted media types, all JSON (default `application/json`); any other, 415. */
  readonly bodyTypes?: readonly string[];
  /** Request headers the operation reads (optional ones): name → description. */
  readonly requestHeaders?: Readonly<Record<string, string>>;
  readonly responses: Readonly<Partial<Record<SuccessStatus, ResponseSpec>>>;
  readonly problems?: Readonly<Partial<Record<ProblemStatus, string>>>;
}

const pageOk = { 200: { description: 'A page, newest first.', schema: pageSchema } } as const;
const pageProblems = { 400: 'Bad limit or cursor, an unknown parameter, or both `before` and `since`.' } as const;
const followListOk = { 200: { description: 'A page, newest follow first.', schema: followListPageSchema } } as const;
/** What every list that is not a feed refuses (`listQuery`, and the shared invalid-cursor error). */
const listProblem = 'Bad limit, a cursor this API did not hand out, or an unknown parameter (`before` included).';
const followListProblems = { 400: `Bad user id. ${listProblem}` } as const;

export const operations = {
  getHealth: {
    summary: 'Liveness probe.',
    responses: { 200: { description: 'Up.', schema: healthSchema } },
  },
  getMe: {
    summary: "The caller's user id (the token's `sub`) and follow counts.",
    responses: { 200: { description: 'The caller.', schema: followCountsSchema } },
    problems: { 404: 'The caller was erased.' },
  },
  getRollupSeries: {
    summary: `A rollup series' points, sparse, oldest first (tokens with the \`${ADMIN_SCOPE}\` scope only).`,
    path: rollupPath,
    query: rollupQuery,
    responses: { 200: { description: 'The points.', schema: rollupSeriesSchema } },
    problems: {
      400: 'Bad name, granularity or timestamp, or a range beyond the retained past, more than a day ahead, over 1,440 points or over 100 partition reads.',
    },
  },
  getActivityWindow: {
    summary: `A user's recent activity buckets, total and segment (their own, or anyone's with the \`${ADMIN_SCOPE}\` scope).`,
    path: userIdPath,
    query: activityWindowQuery,
    responses: { 200: { description: 'The window.', schema: activityWindowSchema } },
    problems: { 400: 'Bad user id or window, or a window longer than what is kept.', 403: `Another user, without the \`${ADMIN_SCOPE}\` scope.` },
  },
  follow: {
    summary: 'Follow a user; backfills their recent posts. Idempotent.',
    path: userIdPath,
    responses: { 204: { description: 'Following (also when already following).' } },
    problems: {
      400: 'Yourself, or a bad id.',
      403: 'The user has blocked the caller.',
      409: 'The caller already follows MAX_FOLLOWING users (default 5,000).',
    },
  },
  unfollow: {
    summary: "Unfollow a user; removes their posts from the caller's feed. Idempotent.",
    path: userIdPath,
    responses: { 204: { description: 'Not following (also when not following before).' } },
    problems: { 400: 'Bad id.' },
  },
  listFollowers: {
    summary: 'Followers, newest follow first.',
    path: userIdPath,
    query: listQuery,
    responses: followListOk,
    problems: followListProblems,
  },
  listFollowing: {
    summary: 'Followed users, newest follow first.',
    path: userIdPath,
    query: listQuery,
    responses: followListOk,
    problems: followListProblems,
  },
  getFollowCounts: {
    summary: 'Follow counts.',
    path: userIdPath,
    responses: { 200: { description: 'The counts.', schema: followCountsSchema } },
    problems: { 400: 'Bad id.', 404: 'The user was erased.' },
  },
  postActivity: {
    summary: `Post an activity as the caller (or, with the \`${ADMIN_SCOPE}\` scope, as \`actor\`).`,
    body: postActivityBody,
    responses: {
      201: { description: 'Created.', schema: activitySchema, headers: { Location: 'Path of the new activity.' } },
      200: { description: 'The foreignId was posted before: the original, nothing written.', schema: activitySchema },
    },
    problems: {
      400: 'Malformed JSON, unknown field or invalid value.',
      403: `\`actor\` in the body, or a verb listed in PROTECTED_VERBS, without the \`${ADMIN_SCOPE}\` scope.`,
      409: 'The foreignId names an activity that was deleted or expired.',
    },
  },
  getActivity: {
    summary: 'One activity.',
    path: activityIdPath,
    responses: { 200: { description: 'The activity.', schema: activitySchema, headers: { ETag: 'Its version, for `If-Match` on PATCH.' } } },
    problems: { 404: 'No such activity (or its author blocked the caller).' },
  },
  deleteActivity: {
    summary: "Delete one of the caller's activities (copies are retracted asynchronously).",
    path: activityIdPath,
    responses: { 204: { description: 'Deleted.' } },
    problems: { 403: 'Not the actor.', 404: 'No such activity (or its author blocked the caller).' },
  },
  editActivity: {
    summary: `Edit one of the caller's activities (with the \`${ADMIN_SCOPE}\` scope, anyone's): a JSON Merge Patch of \`content\`, \`object\` and \`attributes\`.`,
    description:
      'RFC 7396: a field set replaces, `null` removes (inside `attributes`, one attribute). The edit reaches every copy of the activity (home feeds, the timeline, the author\'s merge) within seconds, keeps its position, and keeps the version it replaces in the history (GET /activities/{id}/history, the last 20). With `If-Match` (the ETag: `"<version>"`) the edit happens only while the activity is at that version. A patch that changes nothing answers the activity as it is and writes nothing.',
    path: activityIdPath,
    body: editActivityBody,
    bodyTypes: ['application/merge-patch+json', 'application/json'],
    requestHeaders: { 'If-Match': 'Edit only while the activity is at this version (its ETag), else 412.' },
    responses: {
      200: { description: 'The activity as edited (its new `version`, `editedAt`).', schema: activitySchema, headers: { ETag: 'The new version.' } },
    },
    problems: {
      400: 'Malformed JSON, an unknown field (`id`, `actor`, `verb`, `time`, `foreignId`, `to` and the position never change) or an invalid value, or more than 20 attributes after the merge.',
      404: "No such activity, or someone else's.",
      412: '`If-Match` names a version that is no longer current (nothing was written).',
    },
  },
  getActivityHistory: {
    summary: 'The earlier versions of an activity, newest first (at most the last 20 are kept).',
    path: activityIdPath,
    query: listQuery,
    responses: { 200: { description: 'A page, newest version first.', schema: activityHistoryPageSchema } },
    problems: { 400: listProblem, 404: 'No such activity (or its author blocked the caller).' },
  },
  getHomeFeed: {
    summary: "The caller's home feed (optionally only some verbs, or with reactions).",
    query: pageQuery,
    responses: pageOk,
    problems: pageProblems,
  },
  getUserActivities: {
    summary: "A user's own activities (their timeline).",
    path: userIdPath,
    query: pageQuery,
    responses: pageOk,
    problems: { 400: `Bad user id. ${pageProblems[400]}`, 404: 'The user blocked the caller: to them the timeline does not exist.' },
  },
  getAggregatedFeed: {
    summary: "The caller's home feed, consecutive activities of one actor and verb on one UTC day folded into a group.",
    query: aggregatedQuery,
    responses: { 200: { description: 'A page of groups, newest first.', schema: aggregatedPageSchema } },
    problems: { 400: 'Bad limit or cursor, or an unknown parameter.' },
  },
  getTagActivities: {
    summary: "A tag's activities, newest first (by the server's clock), without those of authors the caller muted or blocked or who blocked the caller.",
    description:
      "The feed contract of GET /feed. A page may hold fewer than `limit` items where hidden authors' posts were left out; `lastRangeKey` still continues where it stopped. A deleted activity leaves at once; a new one appears once its tag fan-out ran (usually well under a second).",
    path: tagPath,
    query: pageQuery,
    responses: pageOk,
    problems: { 400: `Not a tag. ${pageProblems[400]}` },
  },
  getTrendingTags: {
    summary: 'The tags most distinct authors used in the current UTC hour (`1h`) or day (`24h`), with their counts: one read.',
    query: trendingQuery,
    responses: { 200: { description: 'The top tags.', schema: trendingSchema } },
    problems: { 400: 'A window other than 1h or 24h, or an unknown parameter.' },
  },
  followTag: {
    summary: "Follow a tag: its new posts come into the caller's home feed (once, also when they come by another road). Idempotent.",
    path: tagPath,
    responses: { 204: { description: 'Following (also when already following).' } },
    problems: { 400: 'Not a tag.' },
  },
  unfollowTag: {
    summary: "Unfollow a tag: the posts only it brought leave the caller's home feed. Idempotent.",
    path: tagPath,
    responses: { 204: { description: 'Not following (also when not following before).' } },
    problems: { 400: 'Not a tag.' },
  },
  react: {
    summary: 'React to an activity (one per caller, kind and activity: a repeat changes nothing).',
    path: reactionPath,
    responses: { 204: { description: 'Reacted (also when already so).' } },
    problems: { 400: 'Bad kind, or a kind not in REACTION_KINDS.', 403: "The activity's author has blocked the caller.", 404: 'No such activity.' },
  },
  unreact: {
    summary: "Remove the caller's reaction (a no-op if there is none).",
    path: reactionPath,
    responses: { 204: { description: 'Not reacting (also when not before).' } },
    problems: { 400: 'Bad kind.', 404: 'No such activity.' },
  },
  postComment: {
    summary: 'Comment on an activity (notifies its author).',
    path: activityIdPath,
    body: postCommentBody,
    responses: { 201: { description: 'Created.', schema: commentSchema } },
    problems: {
      400: 'Malformed JSON, unknown field, or text not 1–2,000 characters.',
      403: "The activity's author has blocked the caller.",
      404: 'No such activity.',
    },
  },
  listComments: {
    summary: "An activity's comments, newest first.",
    path: activityIdPath,
    query: listQuery,
    responses: { 200: { description: 'A page of comments.', schema: commentPageSchema } },
    problems: { 400: listProblem, 404: 'No such activity.' },
  },
  deleteComment: {
    summary: "Delete a comment: its author's or the activity author's right.",
    path: commentPath,
    responses: { 204: { description: 'Deleted.' } },
    problems: { 403: "Neither the comment's nor the activity's author.", 404: 'No such activity or comment.' },
  },
  listNotifications: {
    summary: "The caller's notification groups (verb + object + UTC day), most recently updated first, with unseen/unread counts.",
    query: listQuery,
    responses: { 200: { description: 'A page of groups.', schema: notificationPageSchema } },
    problems: { 400: listProblem },
  },
  getNotificationCounts: {
    summary: 'Unseen and unread groups (one small read).',
    responses: { 200: { description: 'The counts.', schema: notificationCountsSchema } },
  },
  markNotificationsSeen: {
    summary: 'Mark groups seen: the ids given, or every group when the body is empty.',
    body: markNotificationsBody,
    bodyOptional: true,
    responses: { 204: { description: 'Marked (unknown ids change nothing).' } },
    problems: { 400: 'Malformed JSON, unknown field, or an id that is not a group id.' },
  },
  markNotificationsRead: {
    summary: 'Mark groups read (and seen): the ids given, or every group when the body is empty.',
    body: markNotificationsBody,
    bodyOptional: true,
    responses: { 204: { description: 'Marked (unknown ids change nothing).' } },
    problems: { 400: 'Malformed JSON, unknown field, or an id that is not a group id.' },
  },
  mute: {
    summary: "Mute a user: their posts leave the caller's home feed and they notify the caller no more; a follow stays. Idempotent.",
    path: userIdPath,
    responses: { 204: { description: 'Muted (also when already muted).' } },
    problems: { 400: 'Yourself, or a bad id.' },
  },
  unmute: {
    summary: "Unmute a user: a followed user's recent posts come back, as after a follow. Idempotent.",
    path: userIdPath,
    responses: { 204: { description: 'Not muted (also when not muted before).' } },
    problems: { 400: 'Yourself, or a bad id.' },
  },
  listMutes: {
    summary: 'The users the caller muted.',
    query: listQuery,
    responses: { 200: { description: 'A page.', schema: controlListPageSchema } },
    problems: { 400: listProblem },
  },
  block: {
    summary:
      'Block a user: both follows end; while it stands they cannot follow you, react, comment, notify you, or see your timeline and activities. Idempotent.',
    path: userIdPath,
    responses: { 204: { description: 'Blocked (also when already blocked).' } },
    problems: { 400: 'Yourself, or a bad id.' },
  },
  unblock: {
    summary: 'Lift a block (follows are not restored). Idempotent.',
    path: userIdPath,
    responses: { 204: { description: 'Not blocked.' } },
    problems: { 400: 'Yourself, or a bad id.' },
  },
  listBlocks: {
    summary: 'The users the caller blocked.',
    query: listQuery,
    responses: { 200: { description: 'A page.', schema: controlListPageSchema } },
    problems: { 400: listProblem },
  },
  listFollowedTags: {
    summary: 'The tags the caller follows.',
    query: listQuery,
    responses: { 200: { description: 'A page.', schema: tagFollowPageSchema } },
    problems: { 400: listProblem },
  },
  exportMe: {
    summary: 'Everything tickfeed holds about the caller, in parts: pass each `next` as `cursor` until it is null.',
    query: exportQuery,
    responses: { 200: { description: 'One part.', schema: exportPartSchema } },
    problems: { 400: 'A cursor this API did not hand out, or an unknown parameter.' },
  },
  eraseMe: {
    summary: 'Erase the caller: a background job removes everything of theirs (rollup aggregates stay). Repeating it is harmless.',
    responses: { 202: { description: 'The erase has started; GET /users/{userId} answers 404 once it is done.' } },
  },
  eraseUser: {
    summary: `Erase any user (tokens with the \`${ADMIN_SCOPE}\` scope only), as DELETE /me does.`,
    path: userIdPath,
    responses: { 202: { description: 'The erase has started.' } },
    problems: { 400: 'Bad id.' },
  },
  importFollows: {
    summary: `Import up to 1,000 follows at once (tokens with the \`${ADMIN_SCOPE}\` scope only). Idempotent; no notifications.`,
    description:
      'Counts stay exact, also when a failed call is retried (send the same batch again: it finishes what the failed call began). A follow the followee blocked, of or by an erased user, or past MAX_FOLLOWING is skipped and listed.',
    body: bulkFollowsBody,
    bodyBytes: BULK_BODY_BYTES,
    responses: { 200: { description: 'What was created, what stood already, what was skipped.', schema: bulkFollowsResultSchema } },
    problems: {
      400: 'Malformed JSON, an unknown field, a bad user id, a self-follow, or not 1–1,000 follows.',
    },
  },
  importActivities: {
    summary: `Import up to 100 activities as their actors (tokens with the \`${ADMIN_SCOPE}\` scope only), fanned out as posts are.`,
    description:
      "A `time` in the past is kept as the activity's own time (rollups count it there); feeds still order by the server's clock, in the order given. An activity whose foreignId was posted before answers 200 with the original.",
    body: bulkActivitiesBody,
    bodyBytes: BULK_BODY_BYTES,
    responses: { 200: { description: 'One result per activity, in order.', schema: bulkActivitiesResultSchema } },
    problems: {
      400: 'Malformed JSON, an unknown field or invalid value (`to` included), a `time` more than 5 minutes ahead, or not 1–100 activities.',
      409: 'A foreignId names an activity that was deleted or expired (nothing is written).',
    },
  },
  getOpenApiDocument: {
    summary: 'This document.',
    responses: { 200: { description: 'OpenAPI 3.1.', schema: openApiSchema } },
  },
  getRealtime: {
    summary: 'Where to open the realtime WebSocket (pushed feed items, removals, notification counts: docs/realtime.md).',
    responses: { 200: { description: 'The URL, and the server clock as a catch-up starting point.', schema: realtimeInfoSchema } },
  },
  getMissedFeedItems: {
    summary: 'Catch-up after a reconnect: home-feed copies written after `after`, from the top of the feed down to `until`.',
    query: missedQuery,
    responses: { 200: { description: 'A page of the range, newest first.', schema: missedPageSchema } },
    problems: { 400: 'A missing or malformed `after` or `until`, a bad `before`, or an unknown parameter.' },
  },
  listFeeds: {
    summary: "The caller's own ranked feeds (an admin token: the shared ones), by feed id.",
    query: listQuery,
    responses: { 200: { description: 'A page.', schema: feedListPageSchema } },
    problems: { 400: listProblem },
  },
  putFeed: {
    summary: 'Define a ranked feed (docs/ranked-feeds.md): candidate sources, a ranking expression, heuristics; or (admin) an external feed generator.',
    description:
      "A user's PUT writes a private feed only they may read; an admin token's a shared feed every user may read. The first writer of a feed id owns it: another user's PUT on it is a 403. The expression is parsed and checked first: an error is a 400 naming `body.expression` and the column, and nothing is stored. A `generator` definition (admin only) names a URL tickfeed calls for each page; its answer carries `generatorSecret`, the key of the reader tokens the generator receives.",
    path: feedIdPath,
    body: feedDefinitionBody,
    responses: { 200: { description: 'The definition as stored.', schema: feedDefinitionSchema } },
    problems: {
      400: 'Malformed JSON, an unknown field, a bad source, an expression that does not parse or check (the message names the column), or a generator URL tickfeed may not call.',
      403: 'The feed id belongs to another user (or, for a user, is a shared feed), or a user defined a generator.',
      409: 'The caller already keeps 20 feeds.',
    },
  },
  getFeed: {
    summary: "A ranked feed's definition: the caller's own, or a shared one.",
    path: feedIdPath,
    responses: { 200: { description: 'The definition.', schema: feedDefinitionSchema } },
    problems: { 400: 'Bad feed id.', 404: "No such feed (or another user's private one)." },
  },
  deleteFeed: {
    summary: "Delete a ranked feed: the caller's own (an admin token: a shared one).",
    path: feedIdPath,
    responses: { 204: { description: 'Deleted.' } },
    problems: { 400: 'Bad feed id.', 403: 'A shared feed, and the caller is not an admin.', 404: "No such feed (or another user's private one)." },
  },
  getRankedFeed: {
    summary:
      "A ranked feed for the caller: highest score first, each item with its `score` (with `explain=true`, the variables behind it); a generator feed in its generator's order.",
    description:
      "The first page ranks the candidates once and keeps the ranked ids for 30 minutes; `next` names that ranking and a position, so later pages never repeat or skip a post however scores move. Deleted posts and those of authors the caller muted or blocked (or who blocked the caller) never show; a page is not refilled: `filtered` says how many it left out. A generator feed's page is its generator's skeleton for `limit` and the cursor, cut to `limit` and hydrated the same way; the reading ends on a cursor the generator echoes, an empty page, or 100 pages. After 3 failed calls in a row its breaker answers 503 for 30 seconds without calling it.",
    path: feedIdPath,
    query: rankedQuery,
    responses: { 200: { description: 'A page.', schema: rankedPageSchema } },
    problems: {
      400: 'Bad limit, a cursor this feed did not hand out to the caller, or an expired ranking (read the first page again).',
      404: "No such feed (or another user's private one).",
      502: 'A generator feed whose generator timed out, answered an error status, junk, or more than 256 KiB.',
    },
  },
  sendInteractions: {
    summary: "Feedback on a ranked feed's posts: `seen`, `less` or `more` (docs/ranked-feeds.md#feedback).",
    path: feedIdPath,
    body: interactionsBody,
    responses: { 204: { description: 'Recorded: applies from the next first page.' } },
    problems: { 400: 'Malformed JSON, an unknown event, or not an activity id.', 404: "No such feed (or another user's private one)." },
  },
} as const satisfies Record<OperationId, OperationSpec>;
