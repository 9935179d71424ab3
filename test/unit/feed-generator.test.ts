/** The pure rules that bound a feed generator (model/feed-generator.ts): its cursor, its URL, its breaker. */
import { describe, expect, it } from 'vitest';
import {
  afterFailure,
  BREAKER_FAILURES,
  BREAKER_OPEN_MS,
  CLOSED,
  decodeGeneratorCursor,
  encodeGeneratorCursor,
  generatorUrlProblem,
  isOpen,
  MAX_GENERATOR_PAGES,
  nextGeneratorCursor,
} from '../../functions/model/feed-generator.js';

describe('a generator cursor', () => {
  it('round-trips, and refuses what it did not encode', () => {
    expect(decodeGeneratorCursor(encodeGeneratorCursor(3, 'a.b=c'))).toEqual({ pages: 3, cursor: 'a.b=c' });
    expect(decodeGeneratorCursor('forged')).toBeUndefined();
    expect(decodeGeneratorCursor(encodeGeneratorCursor(0, 'x'))).toBeUndefined();
    expect(decodeGeneratorCursor(encodeGeneratorCursor(MAX_GENERATOR_PAGES, 'x'))).toBeUndefined();
  });

  it('ends on no cursor, an echo, an empty page, an over-long cursor, or the last page allowed', () => {
    expect(nextGeneratorCursor({ pages: 0 }, { items: 5 })).toBeNull();
    expect(nextGeneratorCursor({ pages: 1, cursor: 'c' }, { items: 5, cursor: 'c' })).toBeNull();
    expect(nextGeneratorCursor({ pages: 1, cursor: 'c' }, { items: 0, cursor: 'd' })).toBeNull();
    expect(nextGeneratorCursor({ pages: 1 }, { items: 5, cursor: 'x'.repeat(1001) })).toBeNull();
    expect(decodeGeneratorCursor(nextGeneratorCursor({ pages: 1, cursor: 'c' }, { items: 5, cursor: 'd' })!)).toEqual({ pages: 2, cursor: 'd' });
    // A generator whose cursor is new every time is followed MAX_GENERATOR_PAGES pages, no more.
    let sent: { pages: number; cursor?: string } = { pages: 0 };
    let pages = 1;
    for (let next = nextGeneratorCursor(sent, { items: 1, cursor: 'n0' }); next !== null; next = nextGeneratorCursor(sent, { items: 1, cursor: `n${pages}` })) {
      sent = decodeGeneratorCursor(next)!;
      pages++;
    }
    expect(pages).toBe(MAX_GENERATOR_PAGES);
  });
});

describe('a generator URL', () => {
  it('is https to a public host, or loopback http only where allowed', () => {
    expect(generatorUrlProblem('https://feeds.example.org/hot?x=1', false)).toBeUndefined();
    expect(generatorUrlProblem('https://93.184.216.34/f', false)).toBeUndefined();
    for (const bad of [
      'http://feeds.example.org/f',
      'https://127.0.0.1/f',
      'https://10.1.2.3/f',
      'https://172.20.0.1/f',
      'https://192.168.1.1/f',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/f',
      'https://0.0.0.0/f',
      'https://2130706433/f', // 127.0.0.1, as the URL parser reads it
      'https://[::1]/f',
      'https://localhost/f',
      'https://db.internal/f',
      'https://user:pw@feeds.example.org/f',
      'https://feeds.example.org/f#frag',
      'nope',
    ])
      expect(generatorUrlProblem(bad, false), bad).toBeDefined();
    expect(generatorUrlProblem('http://127.0.0.1:8080/f', true)).toBeUndefined();
    expect(generatorUrlProblem('http://127.0.0.1:8080/f', false)).toBeDefined();
    expect(generatorUrlProblem('http://10.0.0.1/f', true)).toBeDefined();
  });
});

describe('the breaker', () => {
  it(`opens after ${BREAKER_FAILURES} failures in a row, and reopens at once on a failure after its wait`, () => {
    let s = CLOSED;
    for (let i = 1; i < BREAKER_FAILURES; i++) {
      s = afterFailure(s, 1000);
      expect(isOpen(s, 1000)).toBe(false);
    }
    s = afterFailure(s, 1000);
    expect(isOpen(s, 1000)).toBe(true);
    expect(isOpen(s, 1000 + BREAKER_OPEN_MS - 1)).toBe(true);
    const later = 1000 + BREAKER_OPEN_MS;
    expect(isOpen(s, later)).toBe(false); // half-open: one call goes through
    s = afterFailure(s, later);
    expect(isOpen(s, later)).toBe(true);
    expect(s.openUntil).toBe(later + BREAKER_OPEN_MS);
  });
});
