/**
 * Deployment config (keys declared in lib/defs/config.ts), parsed from env vars. Functions read
 * a value once at cold start with `readConfig`; `npm start` and `cdk synth` run `validateConfig`
 * first so a bad value fails there, naming the key, instead of in a request.
 */
import { type ConfigKey, configKeys } from '../../lib/defs/config.js';
import { ConfigError } from './errors.js';
import { parseDuration } from './durations.js';
import { parseRollupSpec } from './rollups/spec.js';
import { parseBucketSize, parseSegments } from './rollups/windows.js';

export { parseDuration };

/** An integer ≥ min, or undefined for `off`. */
function integerOrOff(min: number): (raw: string) => number | undefined {
  const parse = integer(min);
  return (raw) => (raw.trim().toLowerCase() === 'off' ? undefined : parse(raw));
}

function integer(min: number): (raw: string) => number {
  return (raw) => {
    if (!/^\d+$/.test(raw.trim())) throw new Error(`expected an integer ≥ ${min}, got "${raw}"`);
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min) throw new Error(`expected an integer ≥ ${min}, got "${raw}"`);
    return n;
  };
}

/** One parser per key. Capabilities replace the identity parsers with their own. */
export const configParsers = {
  FANOUT_PULL_THRESHOLD: integer(1),
  BACKFILL_LIMIT: integer(0),
  FEED_MAX_ITEMS: integerOrOff(1),
  FEED_MAX_SPAN: parseDuration,
  FEED_TTL: parseDuration,
  ROLLUPS: parseRollupSpec,
  ROLLUP_TTL: parseDuration,
  ROLLUP_PARTITIONS: (raw: string) => {
    const n = integer(1)(raw);
    if (n > 100) throw new Error(`expected at most 100 partitions, got "${raw}"`);
    return n;
  },
  ACTIVITY_BUCKET: parseBucketSize,
  ACTIVITY_BUCKETS: (raw: string) => {
    const n = integer(1)(raw);
    if (n > 1000) throw new Error(`expected at most 1000 buckets, got "${raw}"`);
    return n;
  },
  ACTIVITY_SEGMENTS: parseSegments,
} satisfies Record<ConfigKey, (raw: string) => unknown>;

export type ConfigValue<K extends ConfigKey> = ReturnType<(typeof configParsers)[K]>;

export function readConfig<K extends ConfigKey>(key: K, env: NodeJS.ProcessEnv = process.env): ConfigValue<K> {
  const def = configKeys[key];
  const raw = env[def.envVar] ?? def.default;
  try {
    return configParsers[key](raw) as ConfigValue<K>;
  } catch (error) {
    throw new ConfigError(def.envVar, (error as Error).message);
  }
}

/** Parse every key from `lookup` (env or cdk.json context); throws ConfigError on the first bad one. */
export function validateConfig(lookup: (key: ConfigKey) => string | undefined): void {
  for (const key of Object.keys(configKeys) as ConfigKey[]) {
    const raw = lookup(key);
    readConfig(key, raw === undefined ? {} : { [configKeys[key].envVar]: raw });
  }
}
