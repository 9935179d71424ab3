/**
 * The OpenAPI 3.1 document, generated from the zod schemas that validate requests
 * (`core/activities/schemas.ts`), so docs and validation cannot drift. OpenAPI 3.1 schemas are
 * JSON Schema 2020-12, which is what `z.toJSONSchema` emits.
 */
import { z } from 'zod';
import {
  activityView,
  limits,
  pageQuery,
  pageView,
  postActivityBody,
  problemView,
} from '../core/activities/schemas.js';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function components(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  registry.add(postActivityBody, { id: 'PostActivity' });
  registry.add(activityView, { id: 'Activity' });
  registry.add(pageView, { id: 'Page' });
  registry.add(problemView, { id: 'Problem' });
  const out = z.toJSONSchema(registry, {
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const schemas: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(out.schemas)) {
    const { $schema: _drop, $id: _id, ...rest } = schema as Json;
    schemas[id] = rest;
  }
  return schemas;
}

/** Query parameters from the page schema: one OpenAPI parameter per property. */
function pageParameters(): Json[] {
  const schema = z.toJSONSchema(pageQuery, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, Json>;
  };
  const describe: Record<string, string> = {
    limit: `Page size, 1-${limits.pageMax} (default ${limits.pageDefault}).`,
    before: 'Strictly older than this range key (the previous page\'s lastRangeKey).',
    since:
      'Strictly newer than this range key: the items just above it, newest first. Use to refresh — fan-out copies can land above a page already read. Not with `before`.',
  };
  return Object.entries(schema.properties).map(([name, s]) => ({
    name,
    in: 'query',
    required: false,
    description: describe[name],
    schema: s,
  }));
}

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});
const errors = {
  '400': problem('Malformed request (fields listed in `errors`).'),
  '401': { description: 'Missing or invalid bearer token (from the authorizer).' },
};
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const ok = (description: string, schema: string) => ({
  description,
  content: { 'application/json': { schema: ref(schema) } },
});

export function openApiDocument(): Json {
  const security = [{ bearer: [] }];
  return {
    openapi: '3.1.0',
    info: {
      title: 'tickfeed',
      version: '0.1.0',
      description:
        'Activity feeds keyed by time. Every route but /health and /openapi.json needs a JWT bearer token.',
    },
    components: {
      schemas: components(),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
    paths: {
      '/activities': {
        post: {
          summary: 'Post an activity as the caller',
          security,
          requestBody: {
            required: true,
            description: `JSON, at most ${limits.bodyBytes} bytes (413 above).`,
            content: { 'application/json': { schema: ref('PostActivity') } },
          },
          responses: {
            '201': ok('Created.', 'Activity'),
            '200': ok('A post with this foreignId exists: the original, nothing written.', 'Activity'),
            ...errors,
            '413': problem('Body too large.'),
            '415': problem('Body is not application/json.'),
          },
        },
      },
      '/activities/{id}': {
        get: {
          summary: 'One activity',
          security,
          parameters: [idParam],
          responses: { '200': ok('The activity.', 'Activity'), ...errors, '404': problem('No such activity.') },
        },
        delete: {
          summary: "Delete one of the caller's activities (copies in followers' feeds follow)",
          security,
          parameters: [idParam],
          responses: {
            '204': { description: 'Deleted.' },
            ...errors,
            '403': problem('Not the actor.'),
            '404': problem('No such activity.'),
          },
        },
      },
      '/feed': {
        get: {
          summary: "The caller's home feed, newest first",
          security,
          parameters: pageParameters(),
          responses: { '200': ok('A page.', 'Page'), ...errors },
        },
      },
      '/users/{userId}/activities': {
        get: {
          summary: "A user's own activities, newest first",
          security,
          parameters: [{ name: 'userId', in: 'path', required: true, schema: { type: 'string' } }, ...pageParameters()],
          responses: { '200': ok('A page.', 'Page'), ...errors },
        },
      },
      '/health': { get: { summary: 'Liveness', responses: { '200': { description: 'OK' } } } },
      '/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1' } } } },
    },
  };
}
