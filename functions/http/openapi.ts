/**
 * The OpenAPI 3.1 document of the feed API, generated from the zod schemas that validate the
 * requests (`z.toJSONSchema`, JSON Schema 2020-12 = OpenAPI 3.1's dialect).
 */
import { z } from 'zod';
import { ADMIN_SCOPE } from '../../lib/defs/scopes.js';
import { MAX_USER_ID_CHARS } from '../model/user-id.js';
import { LIMITS, pageQuery } from './schemas.js';

const schema = (s: z.ZodType) => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/** Named schemas (`.meta({ id })` in schemas.ts), cross-referenced as `#/components/schemas/<id>`. */
function componentSchemas(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const out: Record<string, unknown> = {};
  for (const id of ['PostActivity', 'Activity', 'Page', 'Problem']) {
    const { $schema: _drop, $id: _id, ...rest } = schemas[id] as Record<string, unknown>;
    out[id] = rest;
  }
  return out;
}

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});
const unauthorized = {
  description: 'Missing, expired, wrongly signed or wrong-audience token (API Gateway: `{"message":"Unauthorized"}`).',
};
const ok = (ref: string, description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});

function queryParameters() {
  const props = (schema(pageQuery) as { properties: Record<string, { description?: string }> }).properties;
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: 'query',
    required: false,
    description: s.description,
    schema: s,
  }));
}

const pageOp = (summary: string, extra: object[] = []) => ({
  summary,
  security: [{ jwt: [] }],
  parameters: [...extra, ...queryParameters()],
  responses: {
    200: ok('Page', 'A page, newest first.'),
    400: problem('Bad limit or cursor, unknown parameter, or both before and since.'),
    401: unauthorized,
  },
});

/** A user id (model/user-id.ts): 1–256 characters, no control characters. */
const userIdParam = {
  name: 'userId',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: MAX_USER_ID_CHARS, pattern: '^[^\\u0000-\\u001f\\u007f]*$' },
};
const jsonOk = (schema: object) => ({ description: 'OK.', content: { 'application/json': { schema } } });
const followListOp = (summary: string) => ({
  summary,
  security: [{ jwt: [] }],
  parameters: [
    userIdParam,
    { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
    { name: 'before', in: 'query', required: false, schema: { type: 'string' }, description: '`next` of the previous page.' },
  ],
  responses: {
    200: jsonOk({
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'object', properties: { userId: { type: 'string' } } } },
        next: { type: 'string', description: 'Present when there may be more.' },
      },
    }),
    400: problem('Bad limit or cursor.'),
    401: unauthorized,
  },
});

const forbiddenScope = {
  description: `A valid token without the \`${ADMIN_SCOPE}\` scope (API Gateway: \`{"message":"Forbidden"}\`).`,
};
const followCounts = { type: 'object', properties: { userId: { type: 'string' }, followers: { type: 'integer' }, following: { type: 'integer' } } };
const rfc3339 = { type: 'string', format: 'date-time' };

const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Activity id.' };

export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'tickfeed', version: '0.1.0', description: 'Activity feeds keyed by time.' },
    components: {
      securitySchemes: { jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: componentSchemas(),
    },
    paths: {
      '/health': {
        get: {
          summary: 'Liveness probe.',
          security: [],
          responses: { 200: jsonOk({ type: 'object', properties: { status: { type: 'string', const: 'ok' } } }) },
        },
      },
      '/me': {
        get: {
          summary: "The caller's user id (the token's `sub`) and follow counts.",
          security: [{ jwt: [] }],
          responses: { 200: jsonOk(followCounts), 401: unauthorized },
        },
      },
      '/rollups/{name}': {
        get: {
          summary: `A rollup series' points, sparse, oldest first (tokens with the \`${ADMIN_SCOPE}\` scope only).`,
          security: [{ jwt: [ADMIN_SCOPE] }],
          parameters: [
            {
              name: 'name',
              in: 'path',
              required: true,
              description: '`<event_type>.count` or `<event_type>.<attribute>.sum|min|max`.',
              schema: { type: 'string', pattern: '^([^.]+\\.)+count$|^[^.]+(\\.[^.]+)+\\.(sum|min|max)$' },
            },
            { name: 'from', in: 'query', required: false, schema: rfc3339, description: 'Inclusive, aligned down; default: 60 intervals before `to`.' },
            { name: 'to', in: 'query', required: false, schema: rfc3339, description: 'Exclusive, aligned up; default: now.' },
            { name: 'granularity', in: 'query', required: false, schema: { type: 'string', enum: ['minute', 'hour', 'day'], default: 'minute' } },
          ],
          responses: {
            200: jsonOk({
              type: 'object',
              properties: {
                name: { type: 'string' },
                granularity: { type: 'string' },
                points: { type: 'array', items: { type: 'object' } },
              },
            }),
            400: problem('Bad name, granularity or timestamp, or a range beyond the retained past, a day ahead, or 1,440 points.'),
            401: unauthorized,
            403: forbiddenScope,
          },
        },
      },
      '/users/{userId}/activity': {
        get: {
          summary: `A user's recent activity buckets, total and segment (their own, or anyone's with the \`${ADMIN_SCOPE}\` scope).`,
          security: [{ jwt: [] }],
          parameters: [
            userIdParam,
            {
              name: 'window',
              in: 'query',
              required: false,
              description: 'A duration like `90m` or `24h`, rounded up to whole buckets; at most what is kept (default: all of it).',
              schema: { type: 'string', pattern: '^[0-9]+(ms|s|m|h|d)$' },
            },
          ],
          responses: {
            200: jsonOk({
              type: 'object',
              properties: {
                userId: { type: 'string' },
                windowSeconds: { type: 'integer' },
                buckets: { type: 'array', items: { type: 'object' } },
                total: { type: 'integer' },
                segment: { type: 'string' },
              },
            }),
            400: problem('Bad window.'),
            401: unauthorized,
            403: problem(`Another user, without the \`${ADMIN_SCOPE}\` scope.`),
          },
        },
      },
      '/activities': {
        post: {
          summary: 'Post an activity as the caller (or, with the `tickfeed/admin` scope, as `actor`).',
          security: [{ jwt: [] }],
          requestBody: {
            required: true,
            description: `JSON, at most ${LIMITS.bodyBytes} bytes.`,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/PostActivity' } } },
          },
          responses: {
            201: ok('Activity', 'Created.'),
            200: ok('Activity', 'The foreignId was posted before: the original, nothing written.'),
            400: problem('Malformed JSON, unknown field or invalid value.'),
            401: unauthorized,
            403: problem('`actor` in the body, or a verb listed in PROTECTED_VERBS, without the `tickfeed/admin` scope.'),
            409: problem('The foreignId names an activity that was deleted or expired.'),
            413: problem(`Body larger than ${LIMITS.bodyBytes} bytes.`),
            415: problem('Content-Type is not application/json.'),
          },
        },
      },
      '/activities/{id}': {
        get: {
          summary: 'One activity.',
          security: [{ jwt: [] }],
          parameters: [idParam],
          responses: { 200: ok('Activity', 'The activity.'), 401: unauthorized, 404: problem('No such activity.') },
        },
        delete: {
          summary: "Delete one of the caller's activities (copies are retracted asynchronously).",
          security: [{ jwt: [] }],
          parameters: [idParam],
          responses: {
            204: { description: 'Deleted.' },
            401: unauthorized,
            403: problem('Not the actor.'),
            404: problem('No such activity.'),
          },
        },
      },
      '/feed': { get: pageOp("The caller's home feed.") },
      '/users/{userId}/activities': {
        get: pageOp("A user's own activities.", [userIdParam]),
      },
      '/following/{userId}': {
        put: {
          summary: 'Follow a user; backfills their recent posts. Idempotent.',
          security: [{ jwt: [] }],
          parameters: [userIdParam],
          responses: {
            204: { description: 'Following (also when already following).' },
            400: problem('Yourself, or a bad id.'),
            401: unauthorized,
            409: problem('The caller already follows MAX_FOLLOWING users (default 5,000).'),
          },
        },
        delete: {
          summary: "Unfollow a user; removes their posts from the caller's feed. Idempotent.",
          security: [{ jwt: [] }],
          parameters: [userIdParam],
          responses: { 204: { description: 'Not following (also when not following before).' }, 400: problem('Bad id.'), 401: unauthorized },
        },
      },
      '/users/{userId}': {
        get: {
          summary: 'Follow counts.',
          security: [{ jwt: [] }],
          parameters: [userIdParam],
          responses: { 200: jsonOk(followCounts), 401: unauthorized },
        },
      },
      '/users/{userId}/followers': { get: followListOp('Followers, newest follow first.') },
      '/users/{userId}/following': { get: followListOp('Followed users, newest follow first.') },
      '/openapi.json': {
        get: { summary: 'This document.', security: [], responses: { 200: jsonOk({ type: 'object' }) } },
      },
    },
  };
}
