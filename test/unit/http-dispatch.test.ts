/**
 * routes() (functions/http/handler.ts): a function's operations dispatched by the event's route
 * key, each checked in order — caller, admin scope, request schemas — before its function runs.
 * The operations here are stand-ins that record what they were handed; no request reaches
 * DynamoDB (admin tokens skip the rate limit, a first request of a user spends this instance's
 * allowance, a refused caller spends nothing).
 */
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { type OperationId, routeKey, routeSpecs } from '../../lib/defs/routes.js';
import { ADMIN_SCOPE } from '../../lib/defs/scopes.js';
import { json, type OperationRequest, routes } from '../../functions/http/handler.js';
import { httpEvent } from '../support/events.js';
import { uid } from '../support/ids.js';

const event = (
  id: OperationId,
  opts: { sub?: string; admin?: boolean; pathParameters?: Record<string, string>; query?: Record<string, string>; body?: string } = {},
) => {
  const e: APIGatewayProxyEventV2WithJWTAuthorizer = httpEvent({
    routeKey: routeKey(routeSpecs[id]),
    path: '/x',
    sub: opts.sub ?? uid('dispatch'),
    headers: { 'content-type': 'application/json' },
    ...opts,
  });
  if (opts.admin) e.requestContext.authorizer.jwt.claims.scope = ADMIN_SCOPE;
  return e;
};
const problem = (result: unknown) => {
  const r = result as { statusCode: number; headers: Record<string, string>; body: string };
  return { ...(JSON.parse(r.body) as { code: string }), status: r.statusCode, contentType: r.headers['content-type'] };
};

describe('routes(): one function per operation, handed the parsed request', () => {
  const seen: { id: string; request: OperationRequest<OperationId> }[] = [];
  const record = (id: string) => async (request: OperationRequest<OperationId>) => {
    seen.push({ id, request });
    return json(200, { id });
  };
  const graph = routes('graph', {
    follow: record('follow'),
    unfollow: record('unfollow'),
    listFollowers: record('listFollowers'),
    listFollowing: record('listFollowing'),
    getFollowCounts: record('getFollowCounts'),
    followTag: record('followTag'),
    unfollowTag: record('unfollowTag'),
    listFollowedTags: record('listFollowedTags'),
  });
  const bulk = routes('batchImport', { importFollows: record('importFollows'), importActivities: record('importActivities') });

  it('runs the operation the route key names, with its path, query and the caller', async () => {
    seen.length = 0;
    const sub = uid('reader');
    const result = await graph(event('listFollowing', { sub, pathParameters: { userId: 'bob' }, query: { limit: '5' } }));
    expect(JSON.parse((result as { body: string }).body)).toEqual({ id: 'listFollowing' });
    expect(seen).toEqual([
      {
        id: 'listFollowing',
        request: { path: { userId: 'bob' }, query: { limit: '5' }, body: undefined, caller: { userId: sub, admin: false }, header: expect.any(Function) },
      },
    ]);
  });

  it('answers 404 for a route of another function, running nothing', async () => {
    seen.length = 0;
    expect(problem(await graph(event('postActivity', { body: '{"verb":"post"}' })))).toMatchObject({ status: 404, code: 'not_found' });
    expect(seen).toEqual([]);
  });

  it('refuses a token without a valid subject (401) before reading the request', async () => {
    seen.length = 0;
    // A bad path parameter too: the caller is checked first.
    expect(problem(await graph(event('getFollowCounts', { sub: 'a\u0001', pathParameters: { userId: 'b\u0001' } })))).toMatchObject({
      status: 401,
      contentType: 'application/problem+json',
    });
    expect(seen).toEqual([]);
  });

  it("checks an admin route's scope (403) before reading the body, and serves it to an admin token", async () => {
    seen.length = 0;
    expect(problem(await bulk(event('importFollows', { body: '{"nope":1}' })))).toMatchObject({
      status: 403,
      code: 'forbidden',
      contentType: 'application/problem+json',
    });
    expect(seen).toEqual([]);
    expect(problem(await bulk(event('importFollows', { admin: true, body: '{"nope":1}' })))).toMatchObject({ status: 400 });
    const body = { follows: [{ follower: 'a', followee: 'b' }] };
    expect((await bulk(event('importFollows', { admin: true, body: JSON.stringify(body) }))).statusCode).toBe(200);
    expect(seen.map((s) => [s.id, s.request.body, s.request.caller.admin])).toEqual([['importFollows', body, true]]);
  });

  it('answers 400 naming the fields the schemas refuse, running nothing', async () => {
    seen.length = 0;
    expect(problem(await graph(event('listFollowers', { pathParameters: { userId: 'bob' }, query: { limit: '0' } })))).toMatchObject({ status: 400 });
    expect(seen).toEqual([]);
  });
});
