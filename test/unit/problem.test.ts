import { describe, expect, it } from 'vitest';
import { MethodNotAllowedError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../functions/http/http-errors.js';
import { problemResponse, STATUS_OF } from '../../functions/http/problem.js';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../functions/model/domain-errors.js';

const bodyOf = (r: ReturnType<typeof problemResponse>) => JSON.parse(String(r.body)) as Record<string, unknown>;

describe('STATUS_OF', () => {
  it('maps every domain error code, and the edge’s own, to its HTTP status', () => {
    expect(STATUS_OF).toEqual({
      validation_failed: 400,
      unauthorized: 401,
      forbidden: 403,
      not_found: 404,
      method_not_allowed: 405,
      conflict: 409,
      precondition_failed: 412,
      payload_too_large: 413,
      unsupported_media_type: 415,
      rate_limited: 429,
      bad_gateway: 502,
      unavailable: 503,
    });
  });
});

describe('problem mapping', () => {
  it('turns a validation error into a 400 problem with field errors', () => {
    const r = problemResponse(new ValidationError('bad', [{ field: 'verb', message: 'nope' }]), '/activities');
    expect(r.statusCode).toBe(400);
    expect(r.headers?.['content-type']).toBe('application/problem+json');
    expect(bodyOf(r)).toEqual({
      type: 'urn:tickfeed:problem:validation_failed',
      title: 'Bad Request',
      status: 400,
      detail: 'bad',
      code: 'validation_failed',
      instance: '/activities',
      errors: [{ field: 'verb', message: 'nope' }],
    });
  });

  it.each([
    [new UnauthorizedError(), 401, 'unauthorized', 'Unauthorized'],
    [new ForbiddenError('no'), 403, 'forbidden', 'Forbidden'],
    [new NotFoundError('none'), 404, 'not_found', 'Not Found'],
    [new MethodNotAllowedError('no', ['GET']), 405, 'method_not_allowed', 'Method Not Allowed'],
    [new ConflictError('taken'), 409, 'conflict', 'Conflict'],
    [new PayloadTooLargeError(16384), 413, 'payload_too_large', 'Content Too Large'],
    [new UnsupportedMediaTypeError(), 415, 'unsupported_media_type', 'Unsupported Media Type'],
  ])('maps %s to its status', (error, status, code, title) => {
    const r = problemResponse(error);
    expect(r.statusCode).toBe(status);
    expect(bodyOf(r)).toMatchObject({ status, code, title, type: `urn:tickfeed:problem:${code}`, detail: error.message });
    expect(bodyOf(r).errors).toBeUndefined(); // only validation errors list fields
  });

  it('decides the status from the code alone (the domain knows no HTTP)', () => {
    const r = problemResponse(new DomainError('conflict', 'custom'));
    expect(r.statusCode).toBe(409);
    expect(new NotFoundError('x')).not.toHaveProperty('status');
  });

  it('names the allowed methods on a 405', () => {
    const r = problemResponse(new MethodNotAllowedError('no', ['GET', 'DELETE']));
    expect(r.headers?.allow).toBe('GET, DELETE');
  });

  it('asks for a bearer token on a 401, and only there', () => {
    expect(problemResponse(new UnauthorizedError()).headers?.['www-authenticate']).toBe('Bearer');
    expect(problemResponse(new ForbiddenError('no')).headers?.['www-authenticate']).toBeUndefined();
  });

  it('answers an unknown error with a bare 500 that leaks nothing', () => {
    const r = problemResponse(new Error('secret table name tickfeed-feed'));
    expect(r.statusCode).toBe(500);
    expect(r.body).not.toContain('secret');
    expect(bodyOf(r)).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
  });
});
