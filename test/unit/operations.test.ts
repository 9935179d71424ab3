import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routeKey, routes } from '../../lib/defs/routes.js';
import { openApiDocument } from '../../functions/http/openapi.js';
import { JSON_SCHEMA_OPTIONS } from '../../functions/http/openapi-schemas.js';
import { type OperationKey, type OperationSpec, operations } from '../../functions/http/operations.js';
import { parseRequest } from '../../functions/http/parse-request.js';
import { ValidationError } from '../../functions/model/errors.js';
import { httpEvent } from '../support/events.js';

const table = operations as Record<string, OperationSpec>;
const keys = routes.map(routeKey);
type Doc = {
  paths: Record<string, Record<string, { operationId: string; security: Record<string, string[]>[]; parameters?: { name: string; in: string; schema: unknown }[]; responses: Record<string, unknown> }>>;
};
const doc = openApiDocument() as unknown as Doc;

const event = (key: OperationKey, opts: { query?: Record<string, string>; pathParameters?: Record<string, string>; body?: string } = {}) =>
  httpEvent({ routeKey: key, path: '/x', sub: 'me', headers: { 'content-type': 'application/json' }, ...opts });
const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors.map((e) => e.field);
    throw error;
  }
  return [];
};

describe('the route → schema table', () => {
  it('has an entry for every route in lib/defs/routes.ts, and none for anything else', () => {
    expect(Object.keys(operations).sort()).toEqual([...keys].sort());
  });

  it('names each operation once, in camelCase', () => {
    const ids = Object.values(table).map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
  });

  it('gives each path parameter of a route a schema, and no more', () => {
    for (const route of routes) {
      const named = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      expect(Object.keys(table[routeKey(route)]!.path?.shape ?? {}).sort(), routeKey(route)).toEqual(named);
    }
  });

  it('says when a route that validates a query or body answers 400', () => {
    for (const [key, op] of Object.entries(table)) if (op.query || op.body) expect(op.problems?.[400], key).toBeTruthy();
  });
});

describe('parseRequest: the edge validates with the table’s schemas', () => {

  it('returns the parsed parts', () => {
    const parsed = parseRequest(event('GET /users/{userId}/activities', { pathParameters: { userId: 'bob' }, query: { limit: '5' } }), 'GET /users/{userId}/activities');
    expect(parsed).toEqual({ path: { userId: 'bob' }, query: { limit: '5' }, body: undefined });
    expect(parseRequest(event('POST /activities', { body: '{"verb":"post"}' }), 'POST /activities').body).toEqual({ verb: 'post' });
  });

  it('refuses what the entry’s schemas refuse, field by field', () => {
    expect(fieldsOf(() => parseRequest(event('GET /feed', { query: { limit: '0' } }), 'GET /feed'))).toEqual(['query.limit']);
    expect(fieldsOf(() => parseRequest(event('GET /users/{userId}', { pathParameters: { userId: 'a\u0001' } }), 'GET /users/{userId}'))).toEqual(['path.userId']);
    expect(fieldsOf(() => parseRequest(event('GET /rollups/{name}', { pathParameters: { name: 'x.avg' } }), 'GET /rollups/{name}'))).toEqual(['path.name']);
    expect(fieldsOf(() => parseRequest(event('GET /rollups/{name}', { pathParameters: { name: 'x.count' }, query: { from: '2026-11-22' } }), 'GET /rollups/{name}'))).toEqual(['query.from']);
    expect(fieldsOf(() => parseRequest(event('GET /users/{userId}/activity', { pathParameters: { userId: 'a' }, query: { window: 'soon' } }), 'GET /users/{userId}/activity'))).toEqual(['query.window']);
    expect(fieldsOf(() => parseRequest(event('POST /activities', { body: '{"verb":"post","x":1}' }), 'POST /activities'))).toEqual(['body.x']);
  });

  it('gives a bad user id one error, whichever part of the rule it breaks', () => {
    for (const bad of ['', 'x'.repeat(257), 'a\u007fb', 'a\ud800b']) {
      expect(fieldsOf(() => parseRequest(event('GET /users/{userId}', { pathParameters: { userId: bad } }), 'GET /users/{userId}'))).toEqual(['path.userId']);
    }
  });
});

describe('the document generated from the table', () => {
  it('documents every route with its operationId and the route’s security', () => {
    for (const route of routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op?.operationId, routeKey(route)).toBe(table[routeKey(route)]!.operationId);
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
      const op = table[routeKey(route)]!;
      const fromZod = (where: 'path' | 'query') => {
        const schema = op[where];
        if (!schema) return [];
        const { properties } = z.toJSONSchema(schema, { ...JSON_SCHEMA_OPTIONS, io: 'input' }) as { properties: Record<string, Record<string, unknown>> };
        return Object.entries(properties).map(([name, { description: _d, ...s }]) => ({ name, in: where, schema: s }));
      };
      const documented = (doc.paths[route.path]?.[route.method.toLowerCase()]?.parameters ?? []).map(({ name, in: where, schema }) => ({ name, in: where, schema }));
      expect(documented, routeKey(route)).toEqual([...fromZod('path'), ...fromZod('query')]);
    }
  });

  it('shows `limit` as the integer it means while the edge checks its text, with no coercion', () => {
    const paged = routes.filter((route) => (doc.paths[route.path]?.[route.method.toLowerCase()]?.parameters ?? []).some((p) => p.name === 'limit'));
    expect(paged.map(routeKey)).toEqual(expect.arrayContaining(['GET /feed', 'GET /feed/aggregated', 'GET /activities/{id}/comments', 'GET /notifications']));
    for (const route of paged) {
      const limit = doc.paths[route.path]![route.method.toLowerCase()]!.parameters!.find((p) => p.name === 'limit')!;
      expect(limit.schema, routeKey(route)).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
      const key = routeKey(route) as OperationKey;
      const pathParameters = Object.fromEntries((route.path.match(/\{[^}]+\}/g) ?? []).map((p) => [p.slice(1, -1), 'x']));
      const parse = (limit: string) => parseRequest(event(key, { pathParameters, query: { limit } }), key);
      expect(parse('7').query, key).toEqual({ limit: '7' });
      for (const bad of [' 7 ', '1e1', '0x10', '7.0', '0', '101', '']) expect(fieldsOf(() => parse(bad)), `${key} limit=${JSON.stringify(bad)}`).toEqual(['query.limit']);
    }
  });

  it('documents 413 and 415 exactly where a body is read', () => {
    for (const route of routes) {
      const responses = doc.paths[route.path]![route.method.toLowerCase()]!.responses;
      const reads = table[routeKey(route)]!.body !== undefined;
      expect(['413', '415'].map((s) => s in responses), routeKey(route)).toEqual([reads, reads]);
    }
  });
});

describe('two paging contracts: feeds, and one for every other list', () => {
  const FEEDS = ['GET /feed', 'GET /users/{userId}/activities', 'GET /feed/aggregated', 'GET /realtime/missed'];
  const LISTS = [
    'GET /users/{userId}/followers',
    'GET /users/{userId}/following',
    'GET /activities/{id}/comments',
    'GET /notifications',
    'GET /mutes',
    'GET /blocks',
  ];
  const pageShape = (op: OperationSpec) => {
    const schema = op.responses[200]?.schema;
    return schema instanceof z.ZodObject ? schema.shape : undefined;
  };
  const paged = Object.entries(table).filter(([key, op]) => key.startsWith('GET ') && pageShape(op)?.items !== undefined);
  const pathParameters = (key: string) => Object.fromEntries((key.match(/\{[^}]+\}/g) ?? []).map((p) => [p.slice(1, -1), 'x']));

  it('every paged read is a feed or a list, and a new one has to pick', () => {
    expect(paged.map(([key]) => key).sort()).toEqual([...FEEDS, ...LISTS].sort());
  });

  it('feeds answer lastRangeKey, and every list answers items and a next that is always there, null at the end', () => {
    for (const key of FEEDS) expect(Object.keys(pageShape(table[key]!)!), key).toContain('lastRangeKey');
    for (const key of LISTS) {
      const shape = pageShape(table[key]!)!;
      expect(shape, key).not.toHaveProperty('lastRangeKey');
      expect([shape.next!.safeParse(null).success, shape.next!.safeParse('c').success, shape.next!.safeParse(undefined).success], key).toEqual([true, true, false]);
    }
  });

  it('every list takes `limit` and `cursor`, nothing else: the old `before` (or `lastRangeKey`) is an unknown field', () => {
    for (const key of LISTS as OperationKey[]) {
      const parse = (query: Record<string, string>) => parseRequest(event(key, { pathParameters: pathParameters(key), query }), key);
      expect(parse({ limit: '5', cursor: 'c' }).query, key).toEqual({ limit: '5', cursor: 'c' });
      expect(fieldsOf(() => parse({ before: 'c' })), key).toEqual(['query.before']);
      expect(fieldsOf(() => parse({ lastRangeKey: 'c' })), key).toEqual(['query.lastRangeKey']);
    }
    expect(fieldsOf(() => parseRequest(event('GET /me/export', { query: { cursor: 'c', limit: '5' } }), 'GET /me/export'))).toEqual(['query.limit']);
  });
});
