/** Hashtag parsing and identity (model/tags.ts) and the trend top list (model/trend.ts): pure. */
import { describe, expect, it } from 'vitest';
import { isNormalTag, parseTag, tagChanges, tagKeyOf, tagsInText, tagsOf } from '../../functions/model/tags.js';
import { raiseInTop, rankTop, TOP_KEPT, type TopList, trendBucket } from '../../functions/model/trend.js';

describe('tags', () => {
  it('finds #hashtags of any script, not inside words, URLs or entities, and not digits only', () => {
    expect(tagsInText('#Café au lait #東京 #русский_2 #٣x')).toEqual(['Café', '東京', 'русский_2', '٣x']);
    expect(tagsInText('a#b http://x.org/#frag &#38; ##double #12 #_')).toEqual(['_']);
    expect(tagsInText('(#paren) #end.')).toEqual(['paren', 'end']);
  });

  it('identifies tags by NFKC, then lower case, and keeps the first written form', () => {
    expect(tagKeyOf('ＣＡＦÉ')).toBe('café');
    expect(tagKeyOf('Cafe\u0301')).toBe(tagKeyOf('café')); // combining accent composes
    expect(tagsOf('#Café #CAFÉ #ｃａｆé', ['cafÉ', '#Tea'])).toEqual(['Café', 'Tea']);
  });

  it('accepts a tag with or without #, refuses what is not one', () => {
    expect(parseTag('#ok_1')).toBe('ok_1');
    expect(parseTag('ok')).toBe('ok');
    for (const bad of ['', '#', 'a b', 'a-b', '123', 'x'.repeat(101), '⑴']) expect(parseTag(bad), bad).toBeUndefined();
    expect(isNormalTag('café')).toBe(true);
    expect(isNormalTag('Café')).toBe(false);
  });

  it('says which tags an edit removes and adds, by key', () => {
    expect(tagChanges(['A', 'b'], ['a', 'C'])).toEqual({ removed: ['b'], added: ['c'] });
  });
});

describe('the trend top list', () => {
  it('only raises counts, keeps the first written form, and keeps the TOP_KEPT largest', () => {
    let top: TopList = {};
    top = raiseInTop(top, tagKeyOf('a'), 2, 'A')!;
    expect(raiseInTop(top, tagKeyOf('a'), 1, 'a')).toBeUndefined(); // a late, smaller count changes nothing
    top = raiseInTop(top, tagKeyOf('a'), 3, 'a')!;
    expect(top.a).toEqual([3, 'A']);
    for (let i = 0; i < TOP_KEPT - 1; i++) top = raiseInTop(top, tagKeyOf(`t${i}`), 5, `t${i}`)!;
    expect(Object.keys(top)).toHaveLength(TOP_KEPT);
    expect(raiseInTop(top, tagKeyOf('new'), 2, 'new')).toBeUndefined(); // not enough to enter
    top = raiseInTop(top, tagKeyOf('new'), 4, 'new')!; // enters; the smallest (a, 3) leaves
    expect(Object.keys(top)).toHaveLength(TOP_KEPT);
    expect(top.a).toBeUndefined();
    expect(rankTop(top).at(-1)).toEqual({ key: 'new', tag: 'new', authors: 4 });
  });

  it('buckets by UTC hour and day', () => {
    const ms = Date.parse('2026-11-27T10:42:00Z');
    expect(trendBucket('1h', ms)).toEqual({ bucket: 'h2026-11-27T10', from: '2026-11-27T10:00:00.000Z', endsMs: Date.parse('2026-11-27T11:00:00Z') });
    expect(trendBucket('24h', ms).bucket).toBe('d2026-11-27');
  });
});
