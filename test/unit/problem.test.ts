import { describe, expect, it } from 'vitest';
import {
  ForbiddenError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  ValidationError,
} from '../../functions/core/errors.js';
import { problemResponse } from '../../functions/http/problem.js';

const bodyOf = (r: ReturnType<typeof problemResponse>) => JSON.parse(String(r.body)) as Record<string, unknown>;

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
    [new ForbiddenError('no'), 403, 'forbidden'],
    [new PayloadTooLargeError(16384), 413, 'payload_too_large'],
  ])('maps %s to its status', (error, status, code) => {
    const r = problemResponse(error);
    expect(r.statusCode).toBe(status);
    expect(bodyOf(r).code).toBe(code);
  });

  it('names the allowed methods on a 405', () => {
    const r = problemResponse(new MethodNotAllowedError('no', ['GET', 'DELETE']));
    expect(r.headers?.allow).toBe('GET, DELETE');
  });

  it('answers an unknown error with a bare 500 that leaks nothing', () => {
    const r = problemResponse(new Error('secret table name tickfeed-feed'));
    expect(r.statusCode).toBe(500);
    expect(r.body).not.toContain('secret');
    expect(bodyOf(r)).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
  });
});
