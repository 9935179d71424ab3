/**
 * Request schemas of the feed API (zod 4). The route → schema table (operations.ts) names which
 * route uses which; the same objects validate requests (parse-request.ts) and generate
 * `GET /openapi.json` (openapi-document.ts), so the documentation cannot drift from the checks.
 *
 * Sizes: a feed item is copied into every follower's feed, so it should stay ≤ 1 KB (1 write
 * unit per copy) for typical posts. Every field but `content` is small and bounded; `content` is
 * the one big field, capped at 2,000 characters (a 280-character post plus metadata is ~0.5 KB;
 * the cap allows up to ~6 KB of UTF-8, i.e. up to 6 WCU per copy for the rare long post).
 */
import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)
import { MAX_ATTRIBUTES } from '../model/activity.js';
import { MAX_COMMENT_CHARS } from '../model/comment.js';
import { parseGroupId } from '../model/notification.js';
import { MAX_TICKS, parseRangeKey } from '../model/range-key.js';
import { COMMENT_KIND, REACTION_KIND } from '../model/reaction.js';
import { MAX_TAG_CHARS, MAX_TAGS, parseTag } from '../model/tags.js';
import { isValidUserId, isWellFormed, MAX_USER_ID_CHARS, USER_ID_RULE } from '../model/user-id.js';
import { ticksFromIso } from '../platform/clock.js';
import type { ListRequest } from '../services/list-page.js';
import type { Granularity } from '../services/rollups/read-series.js';
import { DOCUMENTED_AS } from './openapi-schemas.js';

export const LIMITS = {
  verb: 64,
  object: 256,
  foreignId: 128,
  content: 2000,
  attributes: MAX_ATTRIBUTES,
  attributeKey: 64,
  attributeString: 256,
  to: 20,
  verbsFilter: 10,
  pageDefault: 20,
  pageMax: 100,
  /** Request bodies above this many bytes are refused with 413 before they are parsed. */
  bodyBytes: 16 * 1024,
} as const;

const wellFormed = isWellFormed;
const text = (min: number, max: number) => z.string().min(min).max(max).refine(wellFormed, { message: 'Invalid UTF-16 (lone surrogate).' });

/**
 * A user id in a path or body: the one rule of model/user-id.ts (`isValidUserId` decides). The
 * checks before it say the same rule in JSON Schema terms, so the document shows it; each stops
 * at its first failure (`abort`), so a bad id gets one error. (JSON Schema counts code points,
 * `isValidUserId` UTF-16 units: ids of astral characters may be refused below 256 code points.)
 */
export const userIdSchema = z
  .string()
  .min(1, { message: USER_ID_RULE, abort: true })
  .max(MAX_USER_ID_CHARS, { message: USER_ID_RULE, abort: true })
  .regex(/^[^\u0000-\u001f\u007f\uFFFE\uFFFF]*$/, { message: USER_ID_RULE, abort: true })
  .refine(isValidUserId, { message: USER_ID_RULE })
  .describe(`A user id: ${USER_ID_RULE}.`);

/**
 * Attribute numbers: what a DynamoDB Number holds (magnitudes 1e-129..1e125) AND what the SDK
 * will marshal from a JS number — it refuses integers beyond ±(2^53−1) (a 500 otherwise), and
 * rollups add these as doubles anyway. Min/max are JSON Schema keywords, so docs show the bound.
 */
const storableNumber = z
  .number()
  .min(-Number.MAX_SAFE_INTEGER)
  .max(Number.MAX_SAFE_INTEGER)
  .refine((n) => n === 0 || Math.abs(n) > 1e-129, {
    message: 'Number too close to zero to store (|n| must exceed 1e-129, or be 0).',
  });

export const verbSchema = z
  .string()
  .regex(/^[a-z0-9_.-]{1,64}$/, { message: 'verb must be 1–64 characters of [a-z0-9_.-].' })
  .describe('Event type, e.g. `post` or `game_finished`.');

const attributeName = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, { message: 'Attribute names are 1–64 characters of [A-Za-z0-9_].' });
const attributeValue = z.union([storableNumber, text(0, LIMITS.attributeString), z.boolean()]);
const atMostAttributes = { message: `At most ${LIMITS.attributes} attributes.` };

export const attributesSchema = z
  .record(attributeName, attributeValue)
  .refine((a) => Object.keys(a).length <= LIMITS.attributes, atMostAttributes)
  .describe('Up to 20 scalar attributes; numbers feed the rollups.');

/** RFC 3339 with an offset and up to 9 fractional digits, inside the range keys can express. */
export const timeSchema = z.iso
  .datetime({ offset: true, local: false })
  .refine(
    (s) => {
      const ticks = ticksFromIso(s);
      return ticks !== undefined && ticks >= 0n && ticks <= MAX_TICKS;
    },
    { message: 'time must lie between 1970-01-01T00:00:00Z and 2262-04-11T23:47:16.854775807Z.' },
  )
  .describe(
    "RFC 3339: the activity's own time (ns precision kept; rollups count it in its minute), at most 5 minutes ahead of the server's clock; defaults to when it is posted. It never positions the activity: feeds are ordered by the server's clock (`rangeKey`).",
  );

/** A tag as a client writes it (model/tags.ts): `#` optional. */
export const tagSchema = z
  .string()
  .max(MAX_TAG_CHARS + 1)
  .refine((t) => parseTag(t) !== undefined, {
    message: `Expected a tag: letters, digits and _ (not digits only), at most ${MAX_TAG_CHARS}, with or without a leading #.`,
  })
  .describe('A hashtag, with or without `#`; case- and width-insensitive (NFKC, then lower case).');

export const postActivityBody = z
  .strictObject({
    verb: verbSchema,
    object: text(1, LIMITS.object).optional().describe('What the activity is about, e.g. `photo:42`.'),
    content: text(1, LIMITS.content).optional().describe('Free text, at most 2,000 characters.'),
    attributes: attributesSchema.optional(),
    foreignId: text(1, LIMITS.foreignId).optional().describe('Client-chosen idempotency key, unique per actor: reposting it returns the original (200).'),
    time: timeSchema.optional(),
    actor: userIdSchema
      .optional()
      .describe(
        'Post as this user instead of the caller: tokens with the `tickfeed/admin` scope only (403 otherwise, even naming yourself). The activity is theirs: their timeline, their followers, their rollups.',
      ),
    to: z
      .array(userIdSchema)
      .max(LIMITS.to, { message: `At most ${LIMITS.to} users.` })
      .optional()
      .describe("Users to notify (at most 20), with the activity's verb and object; the author is never notified."),
    tags: z
      .array(tagSchema)
      .max(MAX_TAGS, { message: `At most ${MAX_TAGS} tags.` })
      .optional()
      .describe(`Tags beside the #hashtags of \`content\`: at most ${MAX_TAGS} distinct tags in all (400 beyond, nothing written).`),
  })
  .meta({ id: 'PostActivity' });

/**
 * PATCH /activities/{id}: a JSON Merge Patch (RFC 7396) of the fields an edit may change, checked
 * as a post's are; `null` removes. Any other field — `id`, `actor`, `verb`, `time`, `foreignId`,
 * `to`, `rangeKey` — is refused (400): they never change.
 */
export const editActivityBody = z
  .strictObject({
    content: text(1, LIMITS.content).nullable().optional().describe('New text (at most 2,000 characters); null removes it.'),
    object: text(1, LIMITS.object).nullable().optional().describe('New object; null removes it.'),
    attributes: z
      .record(attributeName, attributeValue.nullable())
      .refine((a) => Object.keys(a).length <= LIMITS.attributes, atMostAttributes)
      .nullable()
      .optional()
      .describe('Merged into the attributes: a value sets one, null removes one; null for the whole map removes them all. At most 20 after the merge.'),
  })
  .meta({ id: 'ActivityPatch' });

export const rangeKeySchema = z
  .string()
  .regex(/^\d{1,31}$/, { message: 'Expected a range key (decimal digits).' })
  .refine((s) => parseRangeKey(s) !== undefined, { message: 'Range key out of range.' })
  .describe('A range key as returned in `rangeKey` / `lastRangeKey`.');

/**
 * `limit` of every paged list. A query value arrives as text, so the check is on the text (1–3
 * digits, 1–100: no coercion of ' 7 ', '1e1' or '0x10'; one error, not two) and the value stays a
 * string; the document shows the integer it means (`documentedAs`, openapi-schemas.ts), so typed
 * clients pass `limit: 20`.
 */
const limitSchema = z
  .string()
  .regex(/^\d{1,3}$/, { message: 'limit must be an integer from 1 to 100.', abort: true })
  .refine((s) => Number(s) >= 1 && Number(s) <= LIMITS.pageMax, { message: 'limit must be an integer from 1 to 100.' })
  .meta({
    description: 'Page size, 1–100 (default 20).',
    [DOCUMENTED_AS]: { type: 'integer', minimum: 1, maximum: LIMITS.pageMax },
  });

/** `?verbs=a,b`: only activities with one of these verbs. */
const verbsFilter = z
  .string()
  .regex(/^[a-z0-9_.-]{1,64}(,[a-z0-9_.-]{1,64}){0,9}$/, { message: `verbs must be 1–${LIMITS.verbsFilter} comma-separated verbs.` })
  .describe(
    `Only activities with one of these verbs (comma-separated, at most ${LIMITS.verbsFilter}). A filtered page pays for every item it reads to find its matches (at most 16 × (limit + 1) items in 4 Queries) and may come back short, with a \`lastRangeKey\` to continue from.`,
  );

/** The page size a validated `limit` asks for, or the default. */
export const pageLimit = (limit: string | undefined): number => (limit === undefined ? LIMITS.pageDefault : Number(limit));

export const pageQuery = z
  .strictObject({
    limit: limitSchema.optional(),
    before: rangeKeySchema.optional().describe('Return items strictly older than this range key (next page).'),
    since: rangeKeySchema.optional().describe('Return items strictly newer than this range key: the `limit` ones closest to it, newest first.'),
    verbs: verbsFilter.optional(),
    enrich: z
      .enum(['reactions'])
      .optional()
      .describe("`reactions`: each item carries `reactions` (counts and the caller's own kinds), at the cost of two batch reads per page."),
  })
  .refine((q) => q.before === undefined || q.since === undefined, {
    message: 'Use either before or since, not both.',
    path: ['since'],
  });
export type PageQuery = z.infer<typeof pageQuery>;

/** Path of the routes about one user. */
export const userIdPath = z.strictObject({ userId: userIdSchema });

/** Path of the routes about one tag (`/tags/{tag}/…`, `/following/tags/{tag}`). */
export const tagPath = z.strictObject({ tag: tagSchema });

/** Query of GET /tags/trending. */
export const trendingQuery = z.strictObject({
  window: z.enum(['1h', '24h']).optional().describe('`1h`: the current UTC hour so far (default); `24h`: the current UTC day so far.'),
});

/** Path of the routes about one activity. Any string: an id that names nothing is a 404. */
export const activityIdPath = z.strictObject({ id: z.string().describe('Activity id (`id` of an activity).') });

/** A rollup series name: exactly what `combineOf` (lib/defs/rollup-spec.ts) accepts. */
export const rollupPath = z.strictObject({
  name: z
    .string()
    .regex(/^([^.]+\.)+count$|^[^.]+(\.[^.]+)+\.(sum|min|max)$/, {
      message: 'expected <event_type>.count or <event_type>.<attribute>.sum|min|max',
    })
    .describe('`<event_type>.count` or `<event_type>.<attribute>.sum|min|max`.'),
});

const rfc3339 = z.iso.datetime({ offset: true, local: false });
/** Every `Granularity` (services/rollups/read-series.ts), as zod wants an enum's values. */
export const GRANULARITIES = ['minute', 'hour', 'day'] as const satisfies readonly Granularity[];

/** Query of a rollup read (unknown parameters are ignored). */
export const rollupQuery = z.object({
  from: rfc3339.optional().describe('RFC 3339, inclusive, aligned down; default: 60 intervals before `to`.'),
  to: rfc3339.optional().describe('RFC 3339, exclusive, aligned up; default: now.'),
  granularity: z.enum(GRANULARITIES).optional().describe('Interval of the points (default `minute`).'),
});

/** Query of an activity window (unknown parameters are ignored). */
export const activityWindowQuery = z.object({
  window: z
    .string()
    .regex(/^[0-9]+(ms|s|m|h|d)$/, { message: 'expected a duration like 90m or 24h' })
    .optional()
    .describe('A duration like `90m` or `24h`, rounded up to whole buckets; at most what is kept (default: all of it).'),
});

/** Query of GET /feed/aggregated: a page of groups, continued by the last range key. */
export const aggregatedQuery = z.strictObject({
  limit: limitSchema.optional().describe('Groups per page, 1–100 (default 20).'),
  before: rangeKeySchema.optional().describe('`lastRangeKey` of the previous page.'),
});

export const reactionKindSchema = z
  .string()
  .regex(REACTION_KIND, { message: 'kind must be 1–32 characters of [a-z0-9_].', abort: true })
  .refine((k) => k !== COMMENT_KIND, { message: '`comment` counts comments: it is not a reaction kind.' })
  .describe('Reaction kind, e.g. `like`: 1–32 characters of [a-z0-9_], not `comment`.');

/** Path of the reaction routes. */
export const reactionPath = z.strictObject({ id: activityIdPath.shape.id, kind: reactionKindSchema });

/** Path of one comment. */
export const commentPath = z.strictObject({
  id: activityIdPath.shape.id,
  commentId: z.string().describe('Comment id (`id` of a comment).'),
});

export const postCommentBody = z.strictObject({ text: text(1, MAX_COMMENT_CHARS).describe(`1–${MAX_COMMENT_CHARS} characters.`) }).meta({ id: 'PostComment' });

/** Body of POST /notifications/seen and /read; an empty body means every group. */
export const markNotificationsBody = z
  .strictObject({
    ids: z
      .array(
        z
          .string()
          .max(1024)
          .refine((id) => parseGroupId(id) !== undefined, { message: 'Not a notification group id.' }),
      )
      .max(LIMITS.pageMax)
      .describe('Group ids (`id` of a notification group), at most 100.'),
  })
  .meta({ id: 'MarkNotifications' });

// ---- lists that are not feeds (services/list-page.ts) ---------------------------------------------

/**
 * `cursor` of every list that is not a feed: the `next` of the previous page, opaque. Only its
 * length is checked here (the longest a list hands out is ~1 KB); what it names, the list decides,
 * and a cursor it did not hand out is the shared invalid-cursor 400 (`field: query.cursor`).
 */
const cursorSchema = z.string().max(2048).describe('The `next` of the previous page (opaque); omit it for the first page.');

/**
 * Query of every list that is not a feed: followers, following, comments, notifications, mutes,
 * blocks. Strict: another parameter — `before` of the old contract included — is a 400.
 */
export const listQuery = z.strictObject({ limit: limitSchema.optional(), cursor: cursorSchema.optional() });
export type ListQuery = z.infer<typeof listQuery>;

/** The page a validated list query asks for: its size (or the default) and cursor. */
export const listRequest = (q: ListQuery): ListRequest => ({ limit: pageLimit(q.limit), ...(q.cursor !== undefined && { cursor: q.cursor }) });

/** Query of GET /me/export: the list cursor, without a page size (a part is sized by bytes). */
export const exportQuery = listQuery.pick({ cursor: true });

// ---- bulk import (admin) -------------------------------------------------------------------------

/** Largest body of the bulk-import routes: 1,000 follows of two 256-character ids, or 100 long posts. */
export const BULK_BODY_BYTES = 1024 * 1024;
export const BULK_LIMITS = { follows: 1000, activities: 100 } as const;

const bulkFollowEdge = z
  .strictObject({ follower: userIdSchema, followee: userIdSchema })
  .refine((e) => e.follower !== e.followee, { message: 'A user cannot follow themselves.', path: ['followee'] });

export const bulkFollowsBody = z
  .strictObject({
    follows: z
      .array(bulkFollowEdge)
      .min(1, { message: 'At least one follow.' })
      .max(BULK_LIMITS.follows, { message: `At most ${BULK_LIMITS.follows} follows per batch.` })
      .describe(
        `1–${BULK_LIMITS.follows} follow edges. Fastest when each follower's follows come together (as an export lists them); an edge given twice counts once.`,
      ),
    backfill: z
      .boolean()
      .optional()
      .describe("Copy each followee's recent posts into the follower's feed, as a follow does (default false: imports are history)."),
  })
  .meta({ id: 'BulkFollows' });

/** An imported activity: POST /activities' fields with `actor` required and no `to` (imports notify no one). */
const bulkActivity = postActivityBody
  .omit({ to: true })
  .extend({ actor: userIdSchema.describe('The author: the activity goes to their timeline and their followers.') })
  .meta({ id: 'BulkActivity' });

export const bulkActivitiesBody = z
  .strictObject({
    activities: z
      .array(bulkActivity)
      .min(1, { message: 'At least one activity.' })
      .max(BULK_LIMITS.activities, { message: `At most ${BULK_LIMITS.activities} activities per batch.` })
      .describe(`1–${BULK_LIMITS.activities} activities, posted in this order. Give each a \`foreignId\`: a retried batch then creates nothing twice.`),
  })
  .meta({ id: 'BulkActivities' });
