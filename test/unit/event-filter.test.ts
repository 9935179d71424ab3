/**
 * The local event-filter matcher (Lambda FilterCriteria subset) and the stream sources' declared
 * patterns: each consumer gets exactly the records it handles.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { eventSources, type FilterPattern, type StreamSourceDef } from '../../lib/defs/index.js';
import { matchesPattern, passesFilters, validateFilterPattern } from '../../local/event-filter.js';

const source = (fn: string) => eventSources.find((s): s is StreamSourceDef => s.kind === 'stream' && s.fn === fn)!;

type Image = Record<string, Record<string, unknown>>;
function rec(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', pk: string, images: { NewImage?: Image; OldImage?: Image } = {}, ttl = false): DynamoDBRecord {
  return {
    eventID: 'e1',
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: { Keys: { pk: { S: pk }, rk: { N: '42' } }, SequenceNumber: '100', ...images } as DynamoDBRecord['dynamodb'],
    ...(ttl ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
  };
}
const original: Image = { pk: { S: 't#alice' }, rk: { N: '42' }, verb: { S: 'post' } };
const tombstone: Image = { ...original, deletedAt: { S: '2026-11-23T00:00:00.000Z' } };
const copy: Image = { pk: { S: 'f#bob' }, rk: { N: '42' }, verb: { S: 'post' } };
const edited: Image = { ...original, content: { S: 'fixed' }, version: { N: '2' }, editedAt: { S: '2026-11-27T10:00:00.000000000Z' } };

/** Every kind of record the feed table's stream carries, and who must receive it. */
const records: { what: string; record: DynamoDBRecord; outbox: boolean; rollups: boolean }[] = [
  { what: 'timeline insert (a new original)', record: rec('INSERT', 't#alice', { NewImage: original }), outbox: true, rollups: true },
  {
    what: 'DELETE /activities (original gains deletedAt)',
    record: rec('MODIFY', 't#alice', { NewImage: tombstone, OldImage: original }),
    outbox: true,
    rollups: false,
  },
  { what: 'a tombstone modified again', record: rec('MODIFY', 't#alice', { NewImage: tombstone, OldImage: tombstone }), outbox: false, rollups: false },
  {
    what: 'an original modified without deletion',
    record: rec('MODIFY', 't#alice', { NewImage: { ...original, content: { S: 'x' } }, OldImage: original }),
    outbox: false,
    rollups: false,
  },
  {
    what: 'PATCH /activities (an edit: editedAt, a new version)',
    record: rec('MODIFY', 't#alice', { NewImage: edited, OldImage: original }),
    outbox: true,
    rollups: false,
  },
  {
    what: 'DELETE of an edited original',
    record: rec('MODIFY', 't#alice', { NewImage: { ...edited, deletedAt: tombstone.deletedAt! }, OldImage: edited }),
    outbox: true,
    rollups: false,
  },
  {
    what: 'an edited copy',
    record: rec('MODIFY', 'f#bob', { NewImage: { ...copy, editedAt: edited.editedAt!, version: { N: '2' } }, OldImage: copy }),
    outbox: false,
    rollups: false,
  },
  {
    what: 'history entry insert',
    record: rec('INSERT', 'v#42.YWxpY2U', { NewImage: { ...original, pk: { S: 'v#42.YWxpY2U' } } }),
    outbox: false,
    rollups: false,
  },
  { what: 'home-feed copy insert', record: rec('INSERT', 'f#bob', { NewImage: copy }), outbox: false, rollups: false },
  { what: 'home-feed copy rewrite', record: rec('MODIFY', 'f#bob', { NewImage: copy, OldImage: copy }), outbox: false, rollups: false },
  { what: 'trim removal of a copy', record: rec('REMOVE', 'f#bob', { OldImage: copy }), outbox: false, rollups: false },
  { what: 'TTL removal of a copy', record: rec('REMOVE', 'f#bob', { OldImage: copy }, true), outbox: false, rollups: false },
  { what: 'TTL removal of a tombstone', record: rec('REMOVE', 't#alice', { OldImage: tombstone }, true), outbox: false, rollups: false },
  {
    what: 'head update (pulled set)',
    record: rec('MODIFY', 'f#bob', { NewImage: { pk: { S: 'f#bob' }, pulled: { SS: ['x'] } } }),
    outbox: false,
    rollups: false,
  },
  // A pk that merely contains t# is not a timeline item.
  { what: 'copy of a user named t#x', record: rec('INSERT', 'f#t#x', { NewImage: copy }), outbox: false, rollups: false },
];

describe('stream sources: event filters', () => {
  it('declare a filter on every stream consumer, each one the local matcher implements', () => {
    for (const s of eventSources) {
      if (s.kind !== 'stream') continue;
      expect(s.filters.length, s.id).toBeGreaterThan(0);
      for (const p of s.filters) expect(() => validateFilterPattern(p)).not.toThrow();
    }
  });

  for (const { what, record, outbox, rollups } of records) {
    it(`${what}: outbox ${outbox ? 'gets it' : 'never sees it'}, rollups ${rollups ? 'get it' : 'never see it'}`, () => {
      expect(passesFilters(source('outbox').filters, record)).toBe(outbox);
      expect(passesFilters(source('rollups').filters, record)).toBe(rollups);
    });
  }
});

describe('filter matcher (Lambda semantics)', () => {
  const pattern: FilterPattern = { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { pk: { S: [{ prefix: 't#' }] } } } };

  it('matches exact values as alternatives, and prefixes', () => {
    expect(matchesPattern(pattern, { eventName: 'MODIFY', dynamodb: { Keys: { pk: { S: 't#a' } } } })).toBe(true);
    expect(matchesPattern(pattern, { eventName: 'REMOVE', dynamodb: { Keys: { pk: { S: 't#a' } } } })).toBe(false);
    expect(matchesPattern(pattern, { eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'x#a' } } } })).toBe(false);
    expect(matchesPattern(pattern, { eventName: 'INSERT', dynamodb: { Keys: { pk: { N: '1' } } } })).toBe(false); // wrong type: no S
  });

  it('ignores fields the pattern does not name, and fails on a missing named field', () => {
    expect(matchesPattern({ a: ['x'] }, { a: 'x', b: 'anything' })).toBe(true);
    expect(matchesPattern({ a: ['x'] }, { b: 'x' })).toBe(false);
  });

  it('exists: true needs the leaf; exists: false needs it absent, a missing parent included', () => {
    const has = { img: { d: { S: [{ exists: true }] } } } as FilterPattern;
    const hasNot = { img: { d: { S: [{ exists: false }] } } } as FilterPattern;
    expect(matchesPattern(has, { img: { d: { S: 'v' } } })).toBe(true);
    expect(matchesPattern(has, { img: {} })).toBe(false);
    expect(matchesPattern(has, {})).toBe(false);
    expect(matchesPattern(hasNot, { img: {} })).toBe(true);
    expect(matchesPattern(hasNot, {})).toBe(true);
    expect(matchesPattern(hasNot, { img: { d: { S: 'v' } } })).toBe(false);
    // exists is about leaves: an object where a leaf is expected does not count
    expect(matchesPattern({ a: [{ exists: true }] }, { a: { b: 1 } })).toBe(false);
  });

  it('matches a list value when any element matches', () => {
    expect(matchesPattern({ tags: ['b'] }, { tags: ['a', 'b'] })).toBe(true);
    expect(matchesPattern({ tags: [{ prefix: 'x' }] }, { tags: ['a', 'b'] })).toBe(false);
  });

  it('lets every record through with no patterns, and any-of with several', () => {
    expect(passesFilters([], { whatever: 1 })).toBe(true);
    expect(passesFilters([{ a: ['1'] }, { a: ['2'] }], { a: '2' })).toBe(true);
    expect(passesFilters([{ a: ['1'] }, { a: ['2'] }], { a: '3' })).toBe(false);
  });

  it('refuses syntax it does not implement (so local and AWS cannot silently differ)', () => {
    expect(() => validateFilterPattern({ n: [{ numeric: ['>', 1] }] } as unknown as FilterPattern)).toThrow(/unsupported/);
    expect(() => validateFilterPattern({ n: [{ 'anything-but': ['x'] }] } as unknown as FilterPattern)).toThrow(/unsupported/);
    expect(() => validateFilterPattern({ n: [] })).toThrow(/empty/);
    expect(() => validateFilterPattern({})).toThrow(/non-empty/);
  });
});
