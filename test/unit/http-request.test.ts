import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../../functions/http/http-errors.js';
import { jsonBody } from '../../functions/http/request.js';
import { ValidationError } from '../../functions/model/domain-errors.js';
import { httpEvent } from '../support/events.js';

const schema = z.strictObject({ verb: z.string() });
const event = (body: string | undefined, opts: { base64?: boolean; type?: string } = {}) => ({
  ...httpEvent({
    routeKey: 'POST /activities',
    path: '/activities',
    sub: 'u',
    body,
    headers: opts.type === undefined ? { 'content-type': 'application/json' } : { 'content-type': opts.type },
  }),
  isBase64Encoded: opts.base64 ?? false,
});

describe('jsonBody', () => {
  it('decodes base64 bodies (API Gateway sends non-text types that way)', () => {
    const body = Buffer.from('{"verb":"post"}').toString('base64');
    expect(jsonBody(event(body, { base64: true }), schema, 100)).toEqual({ verb: 'post' });
  });
  it('checks size before media type before JSON', () => {
    expect(() => jsonBody(event('x'.repeat(101), { type: 'text/plain' }), schema, 100)).toThrow(PayloadTooLargeError);
    expect(() => jsonBody(event(Buffer.from('x'.repeat(101)).toString('base64'), { base64: true }), schema, 100)).toThrow(PayloadTooLargeError);
    expect(() => jsonBody(event('{', { type: 'text/plain' }), schema, 100)).toThrow(UnsupportedMediaTypeError);
    expect(() => jsonBody(event('{'), schema, 100)).toThrow(ValidationError);
  });
  it('counts bytes, not characters', () => {
    expect(() => jsonBody(event(JSON.stringify({ verb: 'é'.repeat(45) })), schema, 100)).toThrow(PayloadTooLargeError);
  });
  it('accepts a utf-8 charset parameter and refuses others', () => {
    expect(jsonBody(event('{"verb":"a"}', { type: 'application/json; charset=UTF-8' }), schema, 100)).toEqual({ verb: 'a' });
    expect(() => jsonBody(event('{"verb":"a"}', { type: 'application/json; charset=latin1' }), schema, 100)).toThrow(UnsupportedMediaTypeError);
  });
  it('rejects invalid UTF-8 and empty bodies with 400', () => {
    const bad = Buffer.from([0x7b, 0xff, 0x7d]).toString('base64');
    expect(() => jsonBody(event(bad, { base64: true }), schema, 100)).toThrow(ValidationError);
    expect(() => jsonBody(event(undefined), schema, 100)).toThrow(ValidationError);
  });
});
