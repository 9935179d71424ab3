import { describe, expect, it } from 'vitest';
import { matchPath, resolveRoute } from '../../lib/defs/routes.js';

describe('matchPath', () => {
  it('extracts decoded parameters segment by segment', () => {
    expect(matchPath('/users/{userId}/followers', '/users/al%20ice/followers')).toEqual({ userId: 'al ice' });
  });
  it('never lets a parameter span a slash or be empty', () => {
    expect(matchPath('/users/{userId}', '/users/a/b')).toBeUndefined();
    expect(matchPath('/users/{userId}', '/users/')).toBeUndefined();
  });
  it('matches literal segments exactly', () => {
    expect(matchPath('/health', '/health')).toEqual({});
    expect(matchPath('/health', '/healthz')).toBeUndefined();
  });
});

describe('resolveRoute', () => {
  it('finds the route for a known method and path', () => {
    const r = resolveRoute('GET', '/health');
    expect(r.route?.fn).toBe('health');
  });
  it('lists the allowed methods when only the method is wrong', () => {
    const r = resolveRoute('POST', '/health');
    expect(r.route).toBeUndefined();
    expect('allow' in r && r.allow).toEqual(['GET']);
  });
  it('allows nothing for an unknown path', () => {
    const r = resolveRoute('GET', '/nope');
    expect('allow' in r && r.allow).toEqual([]);
  });
});

describe('feed routes', () => {
  it('routes the activity and feed paths, and never throws on a malformed %-escape', () => {
    expect(resolveRoute('DELETE', '/activities/1.YQ').route?.fn).toBe('activities');
    expect(resolveRoute('GET', '/users/a/activities').route?.fn).toBe('feedRead');
    expect(resolveRoute('GET', '/openapi.json').route).toMatchObject({ fn: 'openapi', auth: false });
    expect(matchPath('/activities/{id}', '/activities/%E0%A4%A')).toBeUndefined();
    expect(resolveRoute('PUT', '/feed')).toEqual({ route: undefined, allow: ['GET'] });
  });
});
