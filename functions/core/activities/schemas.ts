/**
 * The activity API's shapes, as zod schemas: the same objects validate requests (handlers) and
 * generate `GET /openapi.json` (`functions/http/openapi.ts`). Limits live in `limits` so docs,
 * validation and tests agree on them.
 */
import { z } from 'zod';
import { MAX_USER_ID_BYTES, parseRangeKey } from '../keys.js';
import { ticksFromIso } from '../ticks.js';
import { MAX_TICKS } from '../keys.js';

export const limits = {
  /** Request bodies above this many bytes are refused (413) before they are parsed. */
  bodyBytes: 16 * 1024,
  verbChars: 64,
  objectChars: 256,
  /**
   * Content is a short text (a caption, a comment). A feed copy is written once per follower, so
   * every byte is paid follower-count times: keep large payloads (documents, images) elsewhere
   * and reference them by `object`. 2,000 chars keeps a worst-case item near 10 KB.
   */
  contentChars: 2_000,
  foreignIdChars: 128,
  attributes: 20,
  attributeKeyChars: 64,
  attributeStringChars: 256,
  /**
   * Attribute numbers must fit DynamoDB's Number (38 digits, magnitude ≤ 10^125) and survive
   * rollup sums as JS doubles: integers or decimals of magnitude ≤ 10^15.
   */
  attributeNumberAbs: 1e15,
  pageDefault: 20,
  pageMax: 100,
} as const;

export const VERB = /^[a-z0-9_.-]{1,64}$/;
/** Same alphabet as rollup attributes (`event_type.attribute.func`), so no `.` in a key. */
export const ATTRIBUTE_KEY = /^[A-Za-z0-9_-]{1,64}$/;

const attributeValue = z.union([
  z.string().max(limits.attributeStringChars),
  z.number().min(-limits.attributeNumberAbs).max(limits.attributeNumberAbs),
  z.boolean(),
]);

/** RFC 3339 with an offset and up to 9 fractional digits, inside the range keys can express. */
const activityTime = z.iso
  .datetime({ offset: true, abort: true })
  .refine(
    (iso) => {
      const ticks = ticksFromIso(iso);
      return ticks !== undefined && ticks >= 0n && ticks <= MAX_TICKS;
    },
    { message: 'time must lie between 1970-01-01T00:00:00Z and 2262-04-11T23:47:16.854775807Z' },
  )
  .meta({ description: 'When the activity happened (RFC 3339, ns precision kept). Defaults to now.' });

export const postActivityBody = z
  .strictObject({
    verb: z.string().regex(VERB, 'verb must be 1-64 characters of a-z, 0-9, _ . -'),
    object: z.string().min(1).max(limits.objectChars).optional(),
    content: z.string().min(1).max(limits.contentChars).optional(),
    attributes: z
      .record(z.string().regex(ATTRIBUTE_KEY, 'attribute names are 1-64 characters of A-Z a-z 0-9 _ -'), attributeValue)
      .refine((a) => Object.keys(a).length <= limits.attributes, `at most ${limits.attributes} attributes`)
      .meta({ maxProperties: limits.attributes })
      .optional(),
    foreignId: z
      .string()
      .min(1)
      .max(limits.foreignIdChars)
      .optional()
      .meta({ description: 'Idempotency key per actor: posting the same foreignId again returns the original (200).' }),
    time: activityTime.optional(),
  });
export type PostActivityBody = z.output<typeof postActivityBody>;

const rangeKeyText = z
  .string()
  .refine((t) => parseRangeKey(t) !== undefined, 'must be a range key: 1-31 decimal digits')
  .meta({ description: 'A range key (decimal string), as returned in rangeKey / lastRangeKey.' });

export const pageQuery = z
  .strictObject({
    limit: z
      .string()
      .regex(/^\d{1,3}$/, 'limit must be an integer from 1 to 100')
      .transform(Number)
      .pipe(z.number().int().min(1, 'limit must be an integer from 1 to 100').max(limits.pageMax, 'limit must be an integer from 1 to 100'))
      .optional(),
    before: rangeKeyText.optional(),
    since: rangeKeyText.optional(),
  })
  .refine((q) => q.before === undefined || q.since === undefined, {
    message: 'before and since cannot be combined',
    path: ['since'],
  });
export type PageQuery = z.output<typeof pageQuery>;

export const userIdParam = z
  .string()
  .min(1)
  .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_USER_ID_BYTES, `at most ${MAX_USER_ID_BYTES} bytes`);

// ---- responses (documentation and typing) ----------------------------------------------------

export const activityView = z
  .object({
    id: z.string().meta({ description: '`<rangeKey>.<base64url(actor)>`: names the original without a lookup.' }),
    actor: z.string(),
    verb: z.string(),
    object: z.string().nullable(),
    content: z.string().nullable(),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    foreignId: z.string().nullable(),
    time: z.string().meta({ description: 'RFC 3339, UTC, 9 fractional digits.' }),
    rangeKey: z.string().meta({ description: 'MAX − ticks, then a 12-digit discriminator; ascending = newest first.' }),
  });
export type ActivityView = z.output<typeof activityView>;

export const pageView = z
  .object({
    items: z.array(activityView),
    lastRangeKey: z.string().nullable().meta({
      description:
        'Continue in the same direction: pass it as `before` after a newest/`before` page, as `since` after a `since` page. null: nothing more that way.',
    }),
  });
export type PageView = z.output<typeof pageView>;

export const problemView = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    code: z.string().optional(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  });
