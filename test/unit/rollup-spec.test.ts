import { describe, expect, it } from 'vitest';
import { readConfig, validateConfig } from '../../lib/defs/config.js';
import { combineOf, parseRollupSpec } from '../../lib/defs/rollup-spec.js';

describe('parseRollupSpec', () => {
  it('parses entries into series names, func in any case', () => {
    const spec = parseRollupSpec('game_finished:MAX(high_score), game_finished:sum(coins),purchase:Min( amount )');
    expect(spec.entries.map((e) => e.name)).toEqual(['game_finished.high_score.max', 'game_finished.coins.sum', 'purchase.amount.min']);
    expect(spec.byEventType.get('game_finished')?.map((e) => e.func)).toEqual(['max', 'sum']);
    expect(spec.byEventType.get('purchase')?.[0]).toMatchObject({ attribute: 'amount', func: 'min' });
  });

  it('treats an empty spec as counts only', () => {
    expect(parseRollupSpec('').entries).toEqual([]);
    expect(parseRollupSpec('   ').entries).toEqual([]);
  });

  it.each([
    ['game_finished:avg(score)', /entry 1 "game_finished:avg\(score\)": func must be sum, min or max/],
    ['a:sum(x),b:max(y),', /entry 3 "": is empty/],
    ['a:sum(x), b-max(y)', /entry 2 "b-max\(y\)": expected event_type:func\(attribute\)/],
    ['a:sum()', /entry 1 "a:sum\(\)": attribute "" may use only/],
    ['a b:sum(x)', /entry 1 "a b:sum\(x\)": event type "a b"/],
    ['a:sum(x.y)', /attribute "x.y"/],
    ['a:sum(x),a:SUM(x)', /entry 2 "a:SUM\(x\)": duplicates an earlier entry \(series a.x.sum\)/],
  ])('rejects %j naming the bad entry', (raw, message) => {
    expect(() => parseRollupSpec(raw)).toThrow(message);
  });

  it('fails config validation (npm start, cdk synth) with the env var and the entry', () => {
    expect(() => readConfig('ROLLUPS', { ROLLUPS: 'ok:sum(a),bad:median(b)' })).toThrow(/^ROLLUPS: entry 2 "bad:median\(b\)": func must be sum, min or max/);
    expect(() => validateConfig((k) => (k === 'ROLLUPS' ? 'x:max' : undefined))).toThrow(/ROLLUPS: entry 1/);
  });
});

describe('combineOf', () => {
  it.each([
    ['game.count', 'sum'],
    ['game.score.sum', 'sum'],
    ['game.score.min', 'min'],
    ['v.1.game.score.max', 'max'],
  ])('%s combines by %s', (name, combine) => expect(combineOf(name)).toBe(combine));

  it.each(['count', 'game', 'game.score', 'game.score.avg', 'game..count', '.count'])('%j is not a series', (name) => {
    expect(combineOf(name)).toBeUndefined();
  });
});
