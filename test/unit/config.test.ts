import { describe, expect, it } from 'vitest';
import { parseDuration, readConfig, validateConfig } from '../../functions/core/config.js';
import { ConfigError } from '../../functions/core/errors.js';

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
  });
  it('names the env var of a bad value', () => {
    expect(() => readConfig('FEED_TTL', { FEED_TTL: 'soon' })).toThrow(ConfigError);
    expect(() => readConfig('FEED_TTL', { FEED_TTL: 'soon' })).toThrow(/^FEED_TTL: /);
  });
  it('validateConfig fails on the first bad key', () => {
    expect(() => validateConfig((k) => (k === 'BACKFILL_LIMIT' ? 'many' : undefined))).toThrow(/BACKFILL_LIMIT/);
    expect(() => validateConfig(() => undefined)).not.toThrow();
  });
});
