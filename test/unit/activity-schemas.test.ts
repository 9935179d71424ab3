import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { limits, pageQuery, postActivityBody } from '../../functions/core/activities/schemas.js';
import { ValidationError } from '../../functions/core/errors.js';
import { readJsonBody } from '../../functions/http/body.js';
import { parseRequest } from '../../functions/http/validate.js';

function fieldsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors.map((e) => e.field);
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('POST /activities body', () => {
  it('accepts a full, typical post', () => {
    const body = {
      verb: 'game_finished',
      object: 'game:42',
      content: 'gg',
      attributes: { score: 1234, level: 'hard', won: true },
      foreignId: 'match-77',
      time: '2026-11-22T18:30:01.123456789+01:00',
    };
    expect(parseRequest(postActivityBody, body, 'body')).toEqual(body);
  });

  it.each([
    ['unknown field', { verb: 'x', actor: 'mallory' }, ['actor']],
    ['missing verb', {}, ['verb']],
    ['upper-case verb', { verb: 'Post' }, ['verb']],
    ['verb of 65 chars', { verb: 'a'.repeat(65) }, ['verb']],
    ['verb not a string', { verb: 7 }, ['verb']],
    ['nested attribute', { verb: 'x', attributes: { a: { b: 1 } } }, ['attributes.a']],
    ['null attribute', { verb: 'x', attributes: { a: null } }, ['attributes.a']],
    ['dotted attribute name', { verb: 'x', attributes: { 'a.b': 1 } }, ['attributes.a.b']],
    ['huge number', { verb: 'x', attributes: { a: 1e300 } }, ['attributes.a']],
    ['long attribute string', { verb: 'x', attributes: { a: 'x'.repeat(257) } }, ['attributes.a']],
    ['content too long', { verb: 'x', content: 'x'.repeat(limits.contentChars + 1) }, ['content']],
    ['empty object', { verb: 'x', object: '' }, ['object']],
    ['foreignId too long', { verb: 'x', foreignId: 'f'.repeat(129) }, ['foreignId']],
    ['time not RFC 3339', { verb: 'x', time: 'yesterday' }, ['time']],
    ['time without offset', { verb: 'x', time: '2026-01-01T00:00:00' }, ['time']],
    ['time before the epoch', { verb: 'x', time: '1969-12-31T23:59:59Z' }, ['time']],
    ['time after the last key', { verb: 'x', time: '2262-04-11T23:47:16.854775808Z' }, ['time']],
  ])('refuses %s, naming the field', (_name, body, fields) => {
    expect(fieldsOf(() => parseRequest(postActivityBody, body, 'body'))).toEqual(fields);
  });

  it('allows 20 attributes, not 21', () => {
    const attrs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`a${i}`, i]));
    expect(() => parseRequest(postActivityBody, { verb: 'x', attributes: attrs(20) }, 'body')).not.toThrow();
    expect(fieldsOf(() => parseRequest(postActivityBody, { verb: 'x', attributes: attrs(21) }, 'body'))).toEqual(['attributes']);
  });

  it('accepts the extreme times that still make a key', () => {
    for (const time of ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00.000000001Z', '2262-04-11T23:47:16.854775807Z']) {
      expect(() => parseRequest(postActivityBody, { verb: 'x', time }, 'body')).not.toThrow();
    }
  });
});

describe('page query', () => {
  it('defaults and parses', () => {
    expect(parseRequest(pageQuery, {}, 'query')).toEqual({});
    expect(parseRequest(pageQuery, { limit: '100', before: '123' }, 'query')).toEqual({ limit: 100, before: '123' });
  });

  it.each([
    [{ limit: '0' }, ['query.limit']],
    [{ limit: '101' }, ['query.limit']],
    [{ limit: '1.5' }, ['query.limit']],
    [{ limit: '-1' }, ['query.limit']],
    [{ limit: '1,2' }, ['query.limit']],
    [{ before: 'abc' }, ['query.before']],
    [{ since: '-5' }, ['query.since']],
    [{ since: '9'.repeat(32) }, ['query.since']],
    [{ before: '1', since: '2' }, ['query.since']],
    [{ cursor: '1' }, ['query.cursor']],
  ])('refuses %j', (query, fields) => {
    expect(fieldsOf(() => parseRequest(pageQuery, query, 'query'))).toEqual(fields);
  });
});

describe('readJsonBody', () => {
  const event = (body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }, isBase64Encoded = false) =>
    ({ body, headers, isBase64Encoded }) as unknown as APIGatewayProxyEventV2;
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
      return 'ok';
    } catch (error) {
      return (error as { code: string }).code;
    }
  };

  it('parses JSON, also base64-encoded and with parameters or a +json type', () => {
    expect(readJsonBody(event('{"a":1}'), 100)).toEqual({ a: 1 });
    expect(readJsonBody(event(Buffer.from('{"a":2}').toString('base64'), undefined, true), 100)).toEqual({ a: 2 });
    expect(readJsonBody(event('{"a":3}', { 'content-type': 'application/merge-patch+json; charset=utf-8' }), 100)).toEqual({ a: 3 });
  });

  it('checks the size before anything else (413 even for garbage of the wrong type)', () => {
    expect(codeOf(() => readJsonBody(event('x'.repeat(101), { 'content-type': 'text/plain' }), 100))).toBe('payload_too_large');
    expect(codeOf(() => readJsonBody(event('é'.repeat(51)), 100))).toBe('payload_too_large'); // 102 bytes, 51 chars
    expect(codeOf(() => readJsonBody(event(Buffer.alloc(101, 32).toString('base64'), undefined, true), 100))).toBe('payload_too_large');
    expect(codeOf(() => readJsonBody(event(`"${'x'.repeat(98)}"`), 100))).toBe('ok'); // exactly 100 bytes
  });

  it('refuses other media types (415), empty, non-UTF-8 and malformed bodies (400)', () => {
    expect(codeOf(() => readJsonBody(event('{}', { 'content-type': 'text/plain' }), 100))).toBe('unsupported_media_type');
    expect(codeOf(() => readJsonBody(event('{}', {}), 100))).toBe('unsupported_media_type');
    expect(codeOf(() => readJsonBody(event(undefined), 100))).toBe('validation_failed');
    expect(codeOf(() => readJsonBody(event(Buffer.from([0x7b, 0xff, 0x7d]).toString('base64'), undefined, true), 100))).toBe('validation_failed');
    expect(codeOf(() => readJsonBody(event('{"a":'), 100))).toBe('validation_failed');
  });
});
