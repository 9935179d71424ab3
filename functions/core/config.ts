/**
 * Deployment config (keys declared in lib/defs/config.ts), parsed from env vars. Functions read
 * a value once at cold start with `readConfig`; `npm start` and `cdk synth` run `validateConfig`
 * first so a bad value fails there, naming the key, instead of in a request.
 */
import { type ConfigKey, configKeys } from '../../lib/defs/config.js';
import { ConfigError } from './errors.js';

/** Milliseconds, or undefined for `off`. Accepts e.g. `500ms`, `90s`, `15m`, `24h`, `30d`. */
export function parseDuration(raw: string): number | undefined {
  const text = raw.trim().toLowerCase();
  if (text === 'off') return undefined;
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!match) throw new Error(`expected a duration like 90s, 24h, 30d or "off", got "${raw}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  const ms = Number(match[1]) * unit;
  if (ms <= 0) throw new Error(`duration must be positive, got "${raw}"`);
  return ms;
}

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
  ROLLUPS: (raw: string) => raw,
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
