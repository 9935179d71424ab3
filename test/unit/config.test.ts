import { describe, expect, it } from 'vitest';
import { ConfigError, configKeys, readConfig, validateConfig } from '../../lib/defs/config.js';
import { parseDuration } from '../../lib/defs/durations.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['90s', 90_000],
    ['15m', 900_000],
    ['24h', 86_400_000],
    ['30d', 2_592_000_000],
    ['OFF', undefined],
  ])('%s → %s', (raw, ms) => expect(parseDuration(raw)).toBe(ms));

  it.each(['', '10', '1w', '-5s', '0s', '1.5h'])('rejects %j', (raw) => {
    expect(() => parseDuration(raw)).toThrow();
  });
});

describe('readConfig', () => {
  it('uses the default when the env var is absent', () => {
    expect(readConfig('FEED_MAX_ITEMS', {})).toBe(1000);
    expect(readConfig('FEED_TTL', {})).toBe(30 * 86_400_000);
    expect(readConfig('FANOUT_PULL_THRESHOLD', {})).toBe(10_000);
    expect(readConfig('BACKFILL_LIMIT', {})).toBe(100);
  });

  it('keeps users’ own posts by default: TIMELINE_TTL and FEED_MAX_SPAN are off', () => {
    expect(readConfig('TIMELINE_TTL', {})).toBeUndefined();
    expect(readConfig('FEED_MAX_SPAN', {})).toBeUndefined();
    expect(readConfig('TIMELINE_TTL', { TIMELINE_TTL: '7d' })).toBe(7 * 86_400_000);
  });

  it('reads the env var over the default', () => {
    expect(readConfig('FEED_MAX_ITEMS', { FEED_MAX_ITEMS: '50' })).toBe(50);
    expect(readConfig('FEED_MAX_ITEMS', { FEED_MAX_ITEMS: 'off' })).toBeUndefined();
    expect(readConfig('BACKFILL_LIMIT', { BACKFILL_LIMIT: '0' })).toBe(0);
  });

  it.each([
    ['FEED_MAX_ITEMS', '0'],
    ['FEED_MAX_ITEMS', '1.5'],
    ['FEED_MAX_ITEMS', '-3'],
    ['FANOUT_PULL_THRESHOLD', '0'],
    ['BACKFILL_LIMIT', 'many'],
    ['ROLLUP_PARTITIONS', '101'],
    ['ROLLUP_PARTITIONS', '0'],
    ['ACTIVITY_BUCKETS', '1001'],
    ['ACTIVITY_BUCKET', '500ms'],
    ['ACTIVITY_SEGMENTS', 'power=1,casual=1'],
    ['TIMELINE_TTL', 'forever'],
    ['NOTIFY_STRANGER_LIMIT', '-1'],
    ['REACTION_KINDS', 'like,Love'],
    ['REACTION_KINDS', 'like,comment'],
    ['REACTION_KINDS', ' , '],
    ['REACTION_KINDS', Array.from({ length: 51 }, (_, i) => `k${i}`).join(',')],
  ] as const)('refuses %s=%j, naming the env var', (key, raw) => {
    const env = { [configKeys[key].envVar]: raw };
    expect(() => readConfig(key, env)).toThrow(ConfigError);
    expect(() => readConfig(key, env)).toThrow(new RegExp(`^${configKeys[key].envVar}: `));
  });

  it('bounds strangers (20 groups a day by default, or off) and allows a few reaction kinds (at most 50)', () => {
    expect(readConfig('NOTIFY_STRANGER_LIMIT', {})).toBe(20);
    expect(readConfig('NOTIFY_STRANGER_LIMIT', { NOTIFY_STRANGER_LIMIT: '0' })).toBe(0);
    expect(readConfig('NOTIFY_STRANGER_LIMIT', { NOTIFY_STRANGER_LIMIT: 'off' })).toBeUndefined();
    expect([...readConfig('REACTION_KINDS', {})]).toEqual(['like', 'love', 'haha', 'wow', 'sad', 'angry', 'celebrate', 'support', 'insightful', 'curious']);
    expect([...readConfig('REACTION_KINDS', { REACTION_KINDS: ' like, fire ,like' })]).toEqual(['like', 'fire']);
    expect(readConfig('REACTION_KINDS', { REACTION_KINDS: Array.from({ length: 50 }, (_, i) => `k${i}`).join(',') }).size).toBe(50);
  });

  it('names the env var of a bad value', () => {
    expect(() => readConfig('FEED_TTL', { FEED_TTL: 'soon' })).toThrow(ConfigError);
    expect(() => readConfig('FEED_TTL', { FEED_TTL: 'soon' })).toThrow(/^FEED_TTL: /);
  });

  it('validateConfig fails on the first bad key, and accepts every default', () => {
    expect(() => validateConfig((k) => (k === 'BACKFILL_LIMIT' ? 'many' : undefined))).toThrow(/BACKFILL_LIMIT/);
    expect(() => validateConfig((k) => (k === 'TIMELINE_TTL' ? '3 days' : undefined))).toThrow(/TIMELINE_TTL/);
    expect(() => validateConfig(() => undefined)).not.toThrow();
    expect(() => validateConfig((k) => configKeys[k].default)).not.toThrow();
  });
});
