import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type OperationId, routeKey, routes, routeSpecs } from '../../lib/defs/routes.js';
import { openApiDocument } from '../../functions/http/openapi-document.js';
import { JSON_SCHEMA_OPTIONS } from '../../functions/http/openapi-schemas.js';
import { type OperationSpec, operations } from '../../functions/http/operations.js';
import { parseRequest } from '../../functions/http/parse-request.js';
import { ValidationError } from '../../functions/model/domain-errors.js';
import { httpEvent } from '../support/events.js';

const table = operations as Record<string, OperationSpec>;
const ids = routes.map((r) => r.id);
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        security: Record<string, string[]>[];
        parameters?: { name: string; in: string; schema: unknown }[];
        responses: Record<string, unknown>;
      }
    >
  >;
};
const doc = openApiDocument() as unknown as Doc;

const event = (id: OperationId, opts: { query?: Record<string, string>; pathParameters?: Record<string, string>; body?: string } = {}) =>
  httpEvent({ routeKey: routeKey(routeSpecs[id]), path: '/x', sub: 'me', headers: { 'content-type': 'application/json' }, ...opts });
const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors.map((e) => e.field);
    throw error;
  }
  return [];
};

describe('the schema table', () => {
  it('has an entry for every route in lib/defs/routes.ts, and none for anything else', () => {
    expect(Object.keys(operations).sort()).toEqual([...ids].sort());
  });

  it('names operations in camelCase, and each route once', () => {
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(new Set(routes.map(routeKey)).size).toBe(routes.length);
  });

  it('gives each path parameter of a route a schema, and no more', () => {
    for (const route of routes) {
      const named = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      expect(Object.keys(table[route.id]!.path?.shape ?? {}).sort(), route.id).toEqual(named);
    }
  });

  it('says when a route that validates a query or body answers 400', () => {
    for (const [key, op] of Object.entries(table)) if (op.query || op.body) expect(op.problems?.[400], key).toBeTruthy();
  });
});

describe('parseRequest: the edge validates with the table’s schemas', () => {
  it('returns the parsed parts', () => {
    const parsed = parseRequest(event('getUserActivities', { pathParameters: { userId: 'bob' }, query: { limit: '5' } }), 'getUserActivities');
    expect(parsed).toEqual({ path: { userId: 'bob' }, query: { limit: '5' }, body: undefined });
    expect(parseRequest(event('postActivity', { body: '{"verb":"post"}' }), 'postActivity').body).toEqual({ verb: 'post' });
  });

  it('refuses what the entry’s schemas refuse, field by field', () => {
    expect(fieldsOf(() => parseRequest(event('getHomeFeed', { query: { limit: '0' } }), 'getHomeFeed'))).toEqual(['query.limit']);
    expect(fieldsOf(() => parseRequest(event('getFollowCounts', { pathParameters: { userId: 'a\u0001' } }), 'getFollowCounts'))).toEqual(['path.userId']);
    expect(fieldsOf(() => parseRequest(event('getRollupSeries', { pathParameters: { name: 'x.avg' } }), 'getRollupSeries'))).toEqual(['path.name']);
    expect(
      fieldsOf(() => parseRequest(event('getRollupSeries', { pathParameters: { name: 'x.count' }, query: { from: '2026-11-22' } }), 'getRollupSeries')),
    ).toEqual(['query.from']);
    expect(
      fieldsOf(() => parseRequest(event('getActivityWindow', { pathParameters: { userId: 'a' }, query: { window: 'soon' } }), 'getActivityWindow')),
    ).toEqual(['query.window']);
    expect(fieldsOf(() => parseRequest(event('postActivity', { body: '{"verb":"post","x":1}' }), 'postActivity'))).toEqual(['body.x']);
  });

  it('gives a bad user id one error, whichever part of the rule it breaks', () => {
    for (const bad of ['', 'x'.repeat(257), 'a\u007fb', 'a\ud800b']) {
      expect(fieldsOf(() => parseRequest(event('getFollowCounts', { pathParameters: { userId: bad } }), 'getFollowCounts'))).toEqual(['path.userId']);
    }
  });
});

describe('the document generated from the table', () => {
  it('documents every route with its operationId and the route’s security', () => {
    for (const route of routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op?.operationId, routeKey(route)).toBe(route.id);
      expect(op?.security, routeKey(route)).toEqual(route.auth ? [{ jwt: [...(route.scopes ?? [])] }] : []);
      if (route.auth) expect(op?.responses).toHaveProperty('401');
      if (route.scopes?.length) expect(op?.responses).toHaveProperty('403');
    }
    expect(doc.paths['/health']?.get?.security).toEqual([]);
    expect(doc.paths['/openapi.json']?.get?.security).toEqual([]);
    expect(doc.paths['/rollups/{name}']?.get?.security).toEqual([{ jwt: ['tickfeed/admin'] }]);
  });

  it('derives parameters from the zod schemas', () => {
    for (const route of routes) {
      const op = table[route.id]!;
      const fromZod = (where: 'path' | 'query') => {
        const schema = op[where];
        if (!schema) return [];
        const { properties } = z.toJSONSchema(schema, { ...JSON_SCHEMA_OPTIONS, io: 'input' }) as { properties: Record<string, Record<string, unknown>> };
        return Object.entries(properties).map(([name, { description: _d, ...s }]) => ({ name, in: where, schema: s }));
      };
      const documented = (doc.paths[route.path]?.[route.method.toLowerCase()]?.parameters ?? []).map(({ name, in: where, schema }) => ({
        name,
        in: where,
        schema,
      }));
      const headers = Object.keys(op.requestHeaders ?? {}).map((name) => ({ name, in: 'header', schema: { type: 'string' } }));
      expect(documented, routeKey(route)).toEqual([...fromZod('path'), ...fromZod('query'), ...headers]);
    }
  });

  it('shows `limit` as the integer it means while the edge checks its text, with no coercion', () => {
    const paged = routes.filter((route) => (doc.paths[route.path]?.[route.method.toLowerCase()]?.parameters ?? []).some((p) => p.name === 'limit'));
    expect(paged.map((r) => r.id)).toEqual(expect.arrayContaining(['getHomeFeed', 'getAggregatedFeed', 'listComments', 'listNotifications']));
    for (const route of paged) {
      const limit = doc.paths[route.path]![route.method.toLowerCase()]!.parameters!.find((p) => p.name === 'limit')!;
      expect(limit.schema, routeKey(route)).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
      const key = route.id;
      const pathParameters = Object.fromEntries((route.path.match(/\{[^}]+\}/g) ?? []).map((p) => [p.slice(1, -1), 'x']));
      const parse = (limit: string) => parseRequest(event(key, { pathParameters, query: { limit } }), key);
      expect(parse('7').query, key).toEqual({ limit: '7' });
      for (const bad of [' 7 ', '1e1', '0x10', '7.0', '0', '101', ''])
        expect(
          fieldsOf(() => parse(bad)),
          `${key} limit=${JSON.stringify(bad)}`,
        ).toEqual(['query.limit']);
    }
  });

  it('documents 413 and 415 exactly where a body is read', () => {
    for (const route of routes) {
      const responses = doc.paths[route.path]![route.method.toLowerCase()]!.responses;
      const reads = table[route.id]!.body !== undefined;
      expect(
        ['413', '415'].map((s) => s in responses),
        routeKey(route),
      ).toEqual([reads, reads]);
    }
  });
});

describe('two paging contracts: feeds, and one for every other list', () => {
  const FEEDS: OperationId[] = ['getHomeFeed', 'getUserActivities', 'getAggregatedFeed', 'getMissedFeedItems', 'getTagActivities'];
  const LISTS: OperationId[] = [
    'listFollowers',
    'listFollowing',
    'listComments',
    'listNotifications',
    'listMutes',
    'listBlocks',
    'getActivityHistory',
    'listFollowedTags',
    'listFeeds',
    'getRankedFeed',
  ];
  const pageShape = (op: OperationSpec) => {
    const schema = op.responses[200]?.schema;
    return schema instanceof z.ZodObject ? schema.shape : undefined;
  };
  const paged = routes.filter((r) => r.method === 'GET' && pageShape(table[r.id]!)?.items !== undefined).map((r) => r.id);
  const pathParameters = (id: OperationId) => Object.fromEntries((routeSpecs[id].path.match(/\{[^}]+\}/g) ?? []).map((p) => [p.slice(1, -1), 'x']));

  it('every paged read is a feed or a list, and a new one has to pick', () => {
    expect([...paged].sort()).toEqual([...FEEDS, ...LISTS].sort());
  });

  it('feeds answer lastRangeKey, and every list answers items and a next that is always there, null at the end', () => {
    for (const key of FEEDS) expect(Object.keys(pageShape(table[key]!)!), key).toContain('lastRangeKey');
    for (const key of LISTS) {
      const shape = pageShape(table[key]!)!;
      expect(shape, key).not.toHaveProperty('lastRangeKey');
      expect([shape.next!.safeParse(null).success, shape.next!.safeParse('c').success, shape.next!.safeParse(undefined).success], key).toEqual([
        true,
        true,
        false,
      ]);
    }
  });

  it('every list takes `limit` and `cursor`, nothing else: the old `before` (or `lastRangeKey`) is an unknown field', () => {
    for (const key of LISTS) {
      const parse = (query: Record<string, string>) => parseRequest(event(key, { pathParameters: pathParameters(key), query }), key);
      expect(parse({ limit: '5', cursor: 'c' }).query, key).toEqual({ limit: '5', cursor: 'c' });
      expect(
        fieldsOf(() => parse({ before: 'c' })),
        key,
      ).toEqual(['query.before']);
      expect(
        fieldsOf(() => parse({ lastRangeKey: 'c' })),
        key,
      ).toEqual(['query.lastRangeKey']);
    }
    expect(fieldsOf(() => parseRequest(event('exportMe', { query: { cursor: 'c', limit: '5' } }), 'exportMe'))).toEqual(['query.limit']);
  });
});
