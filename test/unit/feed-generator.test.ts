/** The pure rules that bound a feed generator (model/feed-generator.ts): its cursor, its URL and addresses, its breaker. */
import { describe, expect, it } from 'vitest';
import {
  BREAKER_FAILURES,
  CLOSED,
  decodeGeneratorCursor,
  encodeGeneratorCursor,
  gateOf,
  generatorUrlProblem,
  isPrivateAddress,
  MAX_GENERATOR_PAGES,
  nextGeneratorCursor,
  opensOn,
} from '../../functions/model/feed-generator.js';
import { itemOf } from '../../functions/services/ranking/generator-call.js';

const alice = { secret: 'c2VjcmV0LW9uZQ', reader: 'alice' };

describe('a generator cursor', () => {
  it('round-trips for the reader and definition it was handed out by, and for no other', () => {
    const c = encodeGeneratorCursor(alice, 3, 'a.b=c');
    expect(decodeGeneratorCursor(alice, c)).toEqual({ pages: 3, cursor: 'a.b=c' });
    expect(decodeGeneratorCursor({ ...alice, reader: 'mallory' }, c)).toBeUndefined(); // another reader's
    expect(decodeGeneratorCursor({ ...alice, secret: 'b3RoZXItZmVlZA' }, c)).toBeUndefined(); // another feed's, or before its PUT
    expect(decodeGeneratorCursor(alice, Buffer.from('3.AAAAAAAAAAAAAAAAAAAAAA.a.b=c').toString('base64url'))).toBeUndefined(); // forged
    expect(decodeGeneratorCursor(alice, 'forged')).toBeUndefined();
    expect(decodeGeneratorCursor(alice, encodeGeneratorCursor(alice, 0, 'x'))).toBeUndefined();
    expect(decodeGeneratorCursor(alice, encodeGeneratorCursor(alice, MAX_GENERATOR_PAGES, 'x'))).toBeUndefined();
  });

  it('ends on no cursor, an echo, an empty page, an over-long cursor, or the last page allowed', () => {
    expect(nextGeneratorCursor(alice, { pages: 0 }, { items: 5 })).toBeNull();
    expect(nextGeneratorCursor(alice, { pages: 1, cursor: 'c' }, { items: 5, cursor: 'c' })).toBeNull();
    expect(nextGeneratorCursor(alice, { pages: 1, cursor: 'c' }, { items: 0, cursor: 'd' })).toBeNull();
    expect(nextGeneratorCursor(alice, { pages: 1 }, { items: 5, cursor: 'x'.repeat(1001) })).toBeNull();
    const wide = 'é'.repeat(1000); // 1,000 characters, 2,000 bytes: past the bound, whose encoding would pass the list cursor's 2,048
    expect(nextGeneratorCursor(alice, { pages: 1 }, { items: 5, cursor: wide })).toBeNull();
    expect(nextGeneratorCursor(alice, { pages: 1 }, { items: 5, cursor: 'é'.repeat(500) })!.length).toBeLessThanOrEqual(2048);
    expect(decodeGeneratorCursor(alice, nextGeneratorCursor(alice, { pages: 1, cursor: 'c' }, { items: 5, cursor: 'd' })!)).toEqual({ pages: 2, cursor: 'd' });
    // A generator whose cursor is new every time is followed MAX_GENERATOR_PAGES pages, no more.
    let sent: { pages: number; cursor?: string } = { pages: 0 };
    let pages = 1;
    for (
      let next = nextGeneratorCursor(alice, sent, { items: 1, cursor: 'n0' });
      next !== null;
      next = nextGeneratorCursor(alice, sent, { items: 1, cursor: `n${pages}` })
    ) {
      sent = decodeGeneratorCursor(alice, next)!;
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
      'https://198.18.0.1/f',
      'https://192.0.0.8/f',
      'https://0.0.0.0/f',
      'https://2130706433/f', // 127.0.0.1, as the URL parser reads it
      'https://0x7f.1/f',
      'https://[::1]/f',
      'https://localhost/f',
      'https://LOCALHOST./f',
      'https://db.internal./f',
      'https://printer.local/f',
      'https://user:pw@feeds.example.org/f',
      'https://feeds.example.org/f#frag',
      'nope',
    ])
      expect(generatorUrlProblem(bad, false), bad).toBeDefined();
    expect(generatorUrlProblem('http://127.0.0.1:8080/f', true)).toBeUndefined();
    expect(generatorUrlProblem('http://127.0.0.1:8080/f', false)).toBeDefined();
    expect(generatorUrlProblem('http://10.0.0.1/f', true)).toBeDefined();
  });

  it('is refused at call time when its name resolves to a private address', () => {
    for (const a of [
      '10.0.0.1',
      '169.254.169.254',
      '127.0.0.1',
      '::1',
      '::ffff:10.0.0.1',
      'fe80::1',
      'fc00::1',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      '2001::1',
      'junk',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '2a00:1450:4001:80b::200e']) expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe("a generator's answer", () => {
  it('keeps a small reason and drops one too big or too deep to serialize', () => {
    expect(itemOf({ activityId: 'a', reason: { by: 'x' } })).toEqual({ activityId: 'a', reason: { by: 'x' } });
    expect(itemOf({ activityId: 'a', reason: { pad: 'x'.repeat(600) } })).toEqual({ activityId: 'a' });
    const deep = JSON.parse(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`) as Record<string, unknown>;
    expect(itemOf({ activityId: 'a', reason: deep })).toEqual({ activityId: 'a' });
    expect(itemOf({ nope: 1 })).toBeUndefined();
  });
});

describe('the breaker', () => {
  it(`opens on the ${BREAKER_FAILURES}th failure in a row; after its wait one trial call goes, whose failure opens it again`, () => {
    expect(gateOf(CLOSED, 1000)).toBe('closed');
    expect(opensOn(BREAKER_FAILURES - 1, false)).toBe(false);
    expect(opensOn(BREAKER_FAILURES, false)).toBe(true);
    const open = { failures: 0, openUntil: 31_000 };
    expect(gateOf(open, 1000)).toBe('open');
    expect(gateOf(open, 30_999)).toBe('open');
    expect(gateOf(open, 31_000)).toBe('trial');
    expect(opensOn(1, true)).toBe(true);
  });
});
