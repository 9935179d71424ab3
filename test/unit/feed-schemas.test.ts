import { describe, expect, it } from 'vitest';
import { validate } from '../../functions/http/request.js';
import { pageQuery, postActivityBody } from '../../functions/http/schemas.js';
import { ValidationError } from '../../functions/model/domain-errors.js';

const ok = (v: unknown) => postActivityBody.safeParse(v).success;

describe('post body schema', () => {
  it('accepts a full valid body', () => {
    expect(
      ok({
        verb: 'game_finished',
        object: 'game:1',
        content: 'gg',
        attributes: { high_score: 9, mode: 'x', won: true },
        foreignId: 'f',
        time: '2026-11-22T18:30:01.123456789+01:00',
      }),
    ).toBe(true);
  });
  it.each([
    ['missing verb', {}],
    ['bad verb', { verb: 'Post' }],
    ['long verb', { verb: 'a'.repeat(65) }],
    ['unknown field', { verb: 'post', author: 'mallory' }],
    ['empty actor', { verb: 'post', actor: '' }],
    ['actor over 256 characters', { verb: 'post', actor: 'm'.repeat(257) }],
    ['actor with a control character', { verb: 'post', actor: 'a\u0000b' }],
    ['21 attributes', { verb: 'p', attributes: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])) }],
    ['bad attribute name', { verb: 'p', attributes: { 'a-b': 1 } }],
    ['nested attribute', { verb: 'p', attributes: { a: { b: 1 } } }],
    ['unstorable number', { verb: 'p', attributes: { a: 1e200 } }],
    ['number the SDK cannot marshal', { verb: 'p', attributes: { a: 2 ** 53 } }],
    ['number too close to zero', { verb: 'p', attributes: { a: 1e-200 } }],
    ['long attribute string', { verb: 'p', attributes: { a: 'x'.repeat(257) } }],
    ['long content', { verb: 'p', content: 'x'.repeat(2001) }],
    ['lone surrogate', { verb: 'p', content: '\ud800' }],
    ['empty foreignId', { verb: 'p', foreignId: '' }],
    ['long foreignId', { verb: 'p', foreignId: 'x'.repeat(129) }],
    ['time without offset', { verb: 'p', time: '2026-11-22T18:30:00' }],
    ['not RFC 3339', { verb: 'p', time: 'March 7, 2026' }],
    ['before the epoch', { verb: 'p', time: '1969-12-31T23:59:59.999999999Z' }],
    ['past the key range', { verb: 'p', time: '2262-04-11T23:47:16.854775808Z' }],
    ['array body', [{ verb: 'p' }]],
  ])('rejects %s', (_name, body) => {
    expect(ok(body)).toBe(false);
  });
  it('reports unknown fields one by one', () => {
    try {
      validate(postActivityBody, { verb: 'p', a: 1, b: 2 }, 'body', 'x');
      expect.unreachable();
    } catch (error) {
      expect((error as ValidationError).errors).toEqual([
        { field: 'body.a', message: 'Unknown field.' },
        { field: 'body.b', message: 'Unknown field.' },
      ]);
    }
  });
});

describe('page query schema', () => {
  const q = (v: Record<string, string>) => pageQuery.safeParse(v).success;
  it('accepts limits 1–100 and range-key cursors', () => {
    expect(q({})).toBe(true);
    expect(q({ limit: '1' })).toBe(true);
    expect(q({ limit: '100', before: '9223372036854775806999999999999' })).toBe(true);
  });
  it.each<Record<string, string>>([
    { limit: '0' },
    { limit: '101' },
    { limit: '1.5' },
    { limit: '' },
    { limit: '-1' },
    { limit: ' 7 ' },
    { limit: '1e1' },
    { limit: '0x10' },
    { before: 'abc' },
    { since: '1'.repeat(32) },
    { before: '1', since: '2' },
    { page: '2' },
  ])('rejects %o', (v) => expect(q(v)).toBe(false));
});
