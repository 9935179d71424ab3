/**
 * Request and response schemas of the ranked-feed routes (docs/ranked-feeds.md). A definition's
 * expression is parsed and checked here, at the edge: a bad one is a 400 whose error names
 * `body.expression` and the column, and the handler (so the store) never runs.
 */
import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)
import { FEED_ID } from '../model/ranked-feed.js';
import { checkExpression } from '../services/ranking/expression-check.js';
import { EXPRESSION_LIMITS, ExpressionError } from '../services/ranking/expression-errors.js';
import { activitySchema, listPageSchema } from './response-schemas.js';
import { listQuery, pageQuery, tagSchema, userIdSchema } from './schemas.js';

/** Most candidates one ranking reads, all sources together: bounds a first page's reads and the snapshot. */
export const MAX_CANDIDATES = 500;

export const feedIdPath = z.strictObject({
  feedId: z
    .string()
    .regex(FEED_ID, { message: 'feedId must be 1–64 characters of [a-z0-9_-], starting with a letter or digit.' })
    .describe('Feed id: 1–64 characters of [a-z0-9_-].'),
});

const windowHours = z
  .number()
  .int()
  .min(1)
  .max(24 * 30)
  .default(72)
  .describe('Only posts of the last this many hours (1–720, default 72).');
const sourceLimit = z.number().int().min(1).max(MAX_CANDIDATES).default(200).describe(`Most candidates this source gives (1–${MAX_CANDIDATES}, default 200).`);

const sourceSchema = z.discriminatedUnion('type', [
  z
    .strictObject({ type: z.literal('following'), windowHours, limit: sourceLimit })
    .describe("The reader's home feed, read as GET /feed reads it (pulled authors and tags merged)."),
  z
    .strictObject({ type: z.literal('tags'), tags: z.array(tagSchema).min(1).max(10), windowHours, limit: sourceLimit })
    .describe("These tags' feeds, as GET /tags/{tag}/activities reads them for the reader."),
  z
    .strictObject({ type: z.literal('authors'), authors: z.array(userIdSchema).min(1).max(20), windowHours, limit: sourceLimit })
    .describe("These users' timelines, as the reader may see them (an author who blocked the reader gives none)."),
]);

const attributeName = z.string().regex(/^[A-Za-z0-9_]{1,64}$/);

const generatorSchema = z
  .strictObject({
    url: z
      .string()
      .max(2000)
      .describe(
        'Called as GET `url?limit=&cursor=` for a skeleton `{ items: [{ activityId, reason? }], cursor? }`: https, a public host (docs/ranked-feeds.md#feed-generators).',
      ),
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .max(8000)
      .default(5000)
      .describe('How long a call may take, body included (100–8,000 ms, default 5,000): past it, the page is a 502.'),
    personalized: z
      .boolean()
      .default(false)
      .describe('Each call carries a bearer token naming the reader (`sub`), signed with the secret the PUT answers; answers are not cached.'),
    interactions: z
      .boolean()
      .default(false)
      .describe("Readers' POST /feeds/{feedId}/interactions are forwarded to it as POST `url` `{ items }`, with the token."),
  })
  .describe('An external feed generator, instead of sources and an expression (admin only).');

export const feedDefinitionBody = z
  .strictObject({
    title: z.string().min(1).max(100).optional(),
    sources: z
      .array(sourceSchema)
      .min(1)
      .max(4)
      .optional()
      .describe('Candidate sources, each bounded; a post two sources give counts once. Required unless `generator`.'),
    expression: z
      .string()
      .min(1)
      .max(EXPRESSION_LIMITS.maxLength)
      .optional()
      .describe('The ranking expression (docs/ranked-feeds.md): higher scores first. Required unless `generator`.'),
    generator: generatorSchema.optional(),
    attributeDefaults: z
      .record(attributeName, z.number().refine(Number.isFinite))
      .refine((r) => Object.keys(r).length <= 20, { message: 'at most 20 attribute defaults' })
      .default({})
      .describe('A default per `attributes.<name>` the expression reads: used where a post lacks the attribute or it is not a number.'),
    heuristics: z
      .strictObject({
        authorDiversity: z.number().gt(0).max(1).optional().describe('Each further post of an author already placed scores × this once more (0–1; 1: off).'),
        dropSeen: z.boolean().optional().describe('Leave out posts the reader marked `seen`.'),
        floor: z.number().refine(Number.isFinite).optional().describe('Leave out posts scoring below this.'),
      })
      .default({}),
  })
  .superRefine((d, ctx) => {
    if (d.generator !== undefined) {
      for (const field of ['sources', 'expression'] as const)
        if (d[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'a generator feed has no sources or expression' });
      if (Object.keys(d.attributeDefaults).length > 0 || Object.keys(d.heuristics).length > 0)
        ctx.addIssue({ code: 'custom', path: ['generator'], message: 'a generator feed takes no attribute defaults or heuristics' });
      return;
    }
    if (d.sources === undefined || d.expression === undefined) {
      ctx.addIssue({ code: 'custom', path: [d.sources === undefined ? 'sources' : 'expression'], message: 'required (unless `generator`)' });
      return;
    }
    const total = d.sources.reduce((n, s) => n + s.limit, 0);
    if (total > MAX_CANDIDATES)
      ctx.addIssue({ code: 'custom', path: ['sources'], message: `the sources' limits add up to ${total}: at most ${MAX_CANDIDATES}` });
    try {
      checkExpression(d.expression, d.attributeDefaults);
    } catch (e) {
      if (!(e instanceof ExpressionError)) throw e;
      ctx.addIssue({ code: 'custom', path: ['expression'], message: e.message });
    }
  })
  .meta({ id: 'FeedDefinitionInput' });

export const feedDefinitionSchema = z
  .object({
    feedId: z.string(),
    owner: z.string().describe('Who wrote it.'),
    shared: z.boolean().describe("An admin's feed: every user may read it. Otherwise only its owner may."),
    updatedAt: z.string(),
    definition: z.record(z.string(), z.unknown()).describe('The definition as stored (FeedDefinitionInput, defaults filled in).'),
    generatorSecret: z
      .string()
      .optional()
      .describe(
        "Only in a generator feed's PUT answer (each PUT issues a new one): the HS256 key of the tokens its generator receives (`iss` tickfeed, `sub` the reader, `aud` `tickfeed:feed:<feedId>`).",
      ),
  })
  .meta({ id: 'FeedDefinition' });

export const feedListPageSchema = listPageSchema(
  'FeedListPage',
  z.object({ feedId: z.string() }),
  "By feed id: the caller's own feeds (an admin's: the shared ones).",
);

/** The list contract's `limit` (1–100) and `cursor`: a page's hydration is one BatchGet call of at most 100 keys. */
export const rankedQuery = z.strictObject({
  limit: listQuery.shape.limit,
  cursor: listQuery.shape.cursor,
  enrich: pageQuery.shape.enrich,
  explain: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      '`true`: each item carries `variables`, the values its score was computed from (asked on the first page: later pages of that ranking carry them too).',
    ),
});

export const rankedPageSchema = z
  .object({
    items: z
      .array(
        activitySchema.extend({
          score: z.number().optional().describe("Its score in this ranking, when the first page ranked it (a generator feed's items have none)."),
          variables: z.record(z.string(), z.number()).optional().describe('With `explain=true`: the variables behind the score.'),
          reason: z
            .record(z.string(), z.unknown())
            .optional()
            .describe("A generator feed's item: the generator's reason for it, as sent (an object of at most 500 characters)."),
        }),
      )
      .describe('Highest score first.'),
    next: z.string().nullable().describe('Pass as `cursor` for the next page of the same ranking; null at its end.'),
    filtered: z
      .number()
      .int()
      .describe(
        "Posts of this page left out (deleted, their author muted or blocked since, or — a generator's — ids naming nothing or repeated): a page is never refilled.",
      ),
  })
  .meta({ id: 'RankedPage' });

export const interactionsBody = z
  .strictObject({
    items: z
      .array(z.strictObject({ activityId: z.string().max(300), event: z.enum(['seen', 'less', 'more']) }))
      .min(1)
      .max(100)
      .describe('`seen`: mark the post seen (`seen`, `dropSeen`); `less` / `more`: its author weighs ×0.5 / ×2 more for this reader (between 1/16 and 16).'),
  })
  .meta({ id: 'FeedInteractions' });
