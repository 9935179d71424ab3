import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../functions/http/openapi-document.js';
import { responseChecker, type SeenResponse } from '../support/response-check.js';

const check = responseChecker(openApiDocument());

const activity = {
  id: '1.YQ',
  actor: 'alice',
  verb: 'post',
  object: null,
  content: 'hi',
  attributes: { score: 3, ok: true },
  foreignId: null,
  to: null,
  tags: null,
  time: '2026-11-23T10:00:00.000Z',
  rangeKey: '9223370000000000000000000000000',
  version: 1,
  editedAt: null,
};
const problem = {
  type: 'urn:tickfeed:problem:validation_failed',
  title: 'Bad Request',
  status: 400,
  code: 'validation_failed',
  errors: [{ field: 'query.limit', message: 'no' }],
};

function seen(method: string, path: string, status: number, body: unknown, headers: Record<string, string> = {}): SeenResponse {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const type: Record<string, string> = body === undefined ? {} : { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' };
  return { method, path, status, headers: new Headers({ ...type, ...headers }), text };
}

describe('response check against the OpenAPI document', () => {
  it('accepts responses as documented', () => {
    expect(check(seen('POST', '/activities', 201, activity, { location: '/activities/1.YQ' }))).toEqual([]);
    expect(check(seen('GET', '/feed?limit=2', 200, { items: [activity], lastRangeKey: null }))).toEqual([]);
    expect(check(seen('GET', '/feed', 400, problem))).toEqual([]);
    expect(check(seen('DELETE', '/following/bob', 204, undefined))).toEqual([]);
    expect(check(seen('GET', '/me', 401, { message: 'Unauthorized' }, { 'content-type': 'application/json' }))).toEqual([]);
    expect(check(seen('GET', '/nope', 404, { ...problem, status: 404, title: 'Not Found', errors: undefined }))).toEqual([]);
    expect(check(seen('POST', '/health', 405, { ...problem, status: 405, title: 'Method Not Allowed', errors: undefined }))).toEqual([]);
  });

  it.each<[string, SeenResponse, RegExp]>([
    ['a required field missing', seen('GET', '/activities/1.YQ', 200, { ...activity, rangeKey: undefined }), /must have required property 'rangeKey'/],
    ['a field of the wrong type', seen('GET', '/activities/1.YQ', 200, { ...activity, content: 42 }), /\/content must be string/],
    ['an undocumented field', seen('GET', '/activities/1.YQ', 200, { ...activity, secret: 'x' }), /must NOT have additional properties/],
    ['a bad nested value', seen('GET', '/feed', 200, { items: [{ ...activity, attributes: { a: [] } }], lastRangeKey: null }), /\/items\/0\/attributes/],
    ['an undocumented status', seen('GET', '/feed', 418, problem), /status 418 is not documented/],
    ['a documented status the route does not have', seen('GET', '/health', 409, problem), /status 409 is not documented/],
    ['the wrong media type', seen('GET', '/feed', 400, problem, { 'content-type': 'application/json' }), /content type "application\/json"/],
    ['a body that is not JSON', seen('GET', '/me', 200, '<html>', { 'content-type': 'application/json' }), /not JSON/],
    ['a body where none is documented', seen('DELETE', '/following/bob', 204, { ok: true }), /without a body/],
    ['a required header missing', seen('POST', '/activities', 201, activity), /Location missing/],
    ['a gateway answer of the wrong shape', seen('GET', '/me', 401, { msg: 'no' }, { 'content-type': 'application/json' }), /required property 'message'/],
    ['a problem without its title', seen('GET', '/feed', 400, { ...problem, title: undefined }), /required property 'title'/],
    ['an unmatched path answered 200', seen('GET', '/nope', 200, { ok: true }), /no route, so 404 was due/],
    ['a wrong method not answered 405', seen('POST', '/health', 404, problem), /405 was due/],
  ])('catches %s', (_name, res, pattern) => {
    const violations = check(res);
    expect(violations.length, violations.join('\n')).toBeGreaterThan(0);
    expect(violations.join('\n')).toMatch(pattern);
  });
});
