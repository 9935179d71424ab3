/**
 * Deployment configuration passed to functions as env vars. Locally the value comes from the
 * environment of `npm start`; in AWS from the `cdk.json` context key. Each function lists the
 * keys it needs in `functions.ts`; the functions read each value once at cold start
 * (`readConfig`) and `cdk synth` / `npm start` validate them all up front (`validateConfig`).
 */
import { parseBucketSize, parseSegments, type WindowConfig } from './activity-window.js';
import { parseDuration } from './durations.js';
import { DEFAULT_RATE_LIMITS, parseRateLimits } from './rate-limits.js';
import { parseRollupSpec } from './rollup-spec.js';

export interface ConfigKeyDef {
  readonly envVar: string;
  readonly contextKey: string;
  readonly default: string;
  /** What it does, as docs/configuration.md shows it (markdown; the table is generated from it). */
  readonly description: string;
  /** The default as the docs show it, where the value itself says little (an empty string). */
  readonly shownDefault?: string;
}

export const configKeys = {
  FANOUT_PULL_THRESHOLD: {
    envVar: 'FANOUT_PULL_THRESHOLD',
    contextKey: 'fanoutPullThreshold',
    default: '10000',
    description: 'authors with at least this many followers are not fanned out; readers pull their posts',
  },
  MAX_FOLLOWING: {
    envVar: 'MAX_FOLLOWING',
    contextKey: 'maxFollowing',
    default: '5000',
    description: 'how many users one user may follow; one more `PUT /following/{id}` is a 409',
  },
  FANOUT_ACTIVE_WINDOW: {
    envVar: 'FANOUT_ACTIVE_WINDOW',
    contextKey: 'fanoutActiveWindow',
    default: '30d',
    description:
      "a post is copied only to followers who read their home feed (or connected to realtime) within this window; a returning reader's feed is merged at read time and rebuilt (`off`: copy to every follower)",
  },
  FANOUT_BACKLOG_AFTER: {
    envVar: 'FANOUT_BACKLOG_AFTER',
    contextKey: 'fanoutBacklogAfter',
    default: '1s',
    description:
      'a fan-out job that waited longer than this in the `fanout` queue is handed to the `fanoutBacklog` queue instead of run, so a new post overtakes a standing backlog (`0s`: every one; `off`: none)',
  },
  STAMP_SPREAD: {
    envVar: 'STAMP_SPREAD',
    contextKey: 'stampSpread',
    default: '15m',
    description:
      "a reader's restamp (raising their activity bound, nothing missing) is delayed by up to this, by reader (at most 15m, and an eighth of `FANOUT_ACTIVE_WINDOW`), and a never-stamped reader asks for their first only in their turn, an eighth of every spread, so a cohort's first reads are spread out (`off`: at once)",
  },
  BACKFILL_LIMIT: {
    envVar: 'BACKFILL_LIMIT',
    contextKey: 'backfillLimit',
    default: '100',
    description: "how many of a followee's recent posts a new follow copies in",
  },
  FEED_MAX_ITEMS: {
    envVar: 'FEED_MAX_ITEMS',
    contextKey: 'feedMaxItems',
    default: '1000',
    description:
      'retention by count of home feeds: a feed always keeps its N newest copies; trims cut it back to N once N + N/4 were written since the last trim (it holds about 2.3N on average), or `off`',
  },
  FEED_MAX_SPAN: {
    envVar: 'FEED_MAX_SPAN',
    contextKey: 'feedMaxSpan',
    default: 'off',
    description: "retention by span of home feeds: trims drop copies older than the feed's newest copy minus this, e.g. `7d`",
  },
  FEED_TTL: {
    envVar: 'FEED_TTL',
    contextKey: 'feedTtl',
    default: '30d',
    description: 'retention by age of home feeds: copies expire this long after the post was made (or `off`)',
  },
  FEED_TRIM_CHANCE: {
    envVar: 'FEED_TRIM_CHANCE',
    contextKey: 'feedTrimChance',
    default: 'auto',
    description:
      'chance that a copy written to a home feed starts a trim attempt: `auto` = 1/`FEED_MAX_ITEMS` (1/16 with a span only), or a number in (0, 1]; higher keeps feeds nearer N for more attempt reads (the tests use `1`, so no trim is left to the draw)',
  },
  TIMELINE_TTL: {
    envVar: 'TIMELINE_TTL',
    contextKey: 'timelineTtl',
    default: 'off',
    description:
      "age policy for users' own posts (their timelines): `off` keeps them until deleted; a duration such as `365d` lets them expire that long after posting",
  },
  ROLLUPS: {
    envVar: 'ROLLUPS',
    contextKey: 'rollups',
    default: '',
    description: 'extra series, e.g. `game_finished:max(high_score),purchase:SUM(amount)`; a bad entry fails `npm start`/`cdk synth` naming it',
    shownDefault: 'empty (counts only)',
  },
  ROLLUP_TTL: {
    envVar: 'ROLLUP_TTL',
    contextKey: 'rollupTtl',
    default: '90d',
    description: 'rollup rows expire this long after their minute (or `off`)',
  },
  ROLLUP_PARTITIONS: {
    envVar: 'ROLLUP_PARTITIONS',
    contextKey: 'rollupPartitions',
    default: '1',
    description: 'partitions per series and day, to split a hot series; only ever raise it',
  },
  ACTIVITY_BUCKET: {
    envVar: 'ACTIVITY_BUCKET',
    contextKey: 'activityBucket',
    default: '1h',
    description: 'recent-activity window: the size of one bucket (it must divide a day evenly)',
  },
  ACTIVITY_BUCKETS: {
    envVar: 'ACTIVITY_BUCKETS',
    contextKey: 'activityBuckets',
    default: '24',
    description: 'recent-activity window: buckets kept per user; older ones expire (TTL) and are filtered on read',
  },
  ACTIVITY_SEGMENTS: {
    envVar: 'ACTIVITY_SEGMENTS',
    contextKey: 'activitySegments',
    default: 'power=50,casual=1',
    description: 'minimum activities over the full window per segment (scaled for shorter windows)',
  },
  NOTIFICATIONS_MAX_ITEMS: {
    envVar: 'NOTIFICATIONS_MAX_ITEMS',
    contextKey: 'notificationsMaxItems',
    default: '200',
    description:
      'retention by count of notification feeds: a user keeps their N most recently updated groups; once N + N/4 are stored the oldest are removed (the counts follow)',
  },
  NOTIFICATIONS_TTL: {
    envVar: 'NOTIFICATIONS_TTL',
    contextKey: 'notificationsTtl',
    default: '30d',
    description:
      'retention by age of notification feeds: groups of UTC days older than this leave pages and unseen/unread counts at once, and expire (DynamoDB TTL); or `off`',
  },
  NOTIFY_STRANGER_LIMIT: {
    envVar: 'NOTIFY_STRANGER_LIMIT',
    contextKey: 'notifyStrangerLimit',
    default: '20',
    description:
      "how many notification groups a sender the recipient does not follow may start in the recipient's notifications per UTC day; past it, their events that would start another group for that recipient are dropped (their posts still succeed); `0` lets strangers start none, `off` sets no bound ([security](security.md#limits-and-their-defaults))",
  },
  REACTION_KINDS: {
    envVar: 'REACTION_KINDS',
    contextKey: 'reactionKinds',
    default: 'like,love,haha,wow,sad,angry,celebrate,support,insightful,curious',
    description:
      'the reaction kinds a user may PUT (another is a 400): comma-separated, 1–50 kinds of 1–32 characters of `[a-z0-9_]`, not `comment`; it bounds every item reactions grow (counters, reaction sets)',
  },
  CONTROL_SETTLE: {
    envVar: 'CONTROL_SETTLE',
    contextKey: 'controlSettle',
    default: '60s',
    description:
      "unfollow, mute and block clean the feed twice: at once and again this much later, for a fan-out page that read its followers before the change; keep it above the fan-out worker's timeout (30 s); 1s–900s",
  },
  PROTECTED_VERBS: {
    envVar: 'PROTECTED_VERBS',
    contextKey: 'protectedVerbs',
    default: '',
    description: 'comma-separated verbs only `tickfeed/admin` tokens may post, e.g. `purchase,refund` (a user token gets 403)',
    shownDefault: 'empty',
  },
  RATE_LIMITS: {
    envVar: 'RATE_LIMITS',
    contextKey: 'rateLimits',
    default: DEFAULT_RATE_LIMITS,
    description:
      'per-caller token buckets per class of route (`burst/period`: that many at once, that many more per period); past one, 429 problem+json with `Retry-After`; admin tokens are not limited; list only the classes to change, or `off` ([security](security.md#rate-limits))',
  },
  FEED_GENERATOR_LOOPBACK: {
    envVar: 'FEED_GENERATOR_LOOPBACK',
    contextKey: 'feedGeneratorLoopback',
    default: 'off',
    description:
      '`on`: a feed generator may also be `http://127.0.0.1:<port>` (local development and the tests); `off`: only https URLs of public hosts ([ranked feeds](ranked-feeds.md#feed-generators))',
  },
} as const satisfies Record<string, ConfigKeyDef>;

export type ConfigKey = keyof typeof configKeys;

/** Configuration that cannot be parsed: fails cold start / `cdk synth` / `npm start` loudly. */
export class ConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`${key}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** An integer ≥ min. */
function integer(min: number): (raw: string) => number {
  return (raw) => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min) throw new Error(`expected an integer ≥ ${min}, got "${raw}"`);
    return n;
  };
}

/** An integer ≥ min, or undefined for `off`. */
function integerOrOff(min: number): (raw: string) => number | undefined {
  const parse = integer(min);
  return (raw) => (raw.trim().toLowerCase() === 'off' ? undefined : parse(raw));
}

function integerUpTo(min: number, max: number, what: string): (raw: string) => number {
  return (raw) => {
    const n = integer(min)(raw);
    if (n > max) throw new Error(`expected at most ${max} ${what}, got "${raw}"`);
    return n;
  };
}

/** `auto` (undefined: the policy derives it), or a probability in (0, 1]. */
function chanceOrAuto(raw: string): number | undefined {
  const text = raw.trim().toLowerCase();
  if (text === 'auto') return undefined;
  const n = Number(text);
  if (!/^(0|1)?(\.\d+)?$/.test(text) || text === '' || !(n > 0 && n <= 1)) throw new Error(`expected auto or a number in (0, 1], got "${raw}"`);
  return n;
}

/** Comma-separated verbs (the POST /activities verb rule), blanks ignored: a set. */
function parseVerbList(raw: string): ReadonlySet<string> {
  const verbs = raw
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  for (const v of verbs) if (!/^[a-z0-9_.-]{1,64}$/.test(v)) throw new Error(`"${v}" is not a verb (1–64 characters of [a-z0-9_.-])`);
  return new Set(verbs);
}

/** Most reaction kinds a deployment may allow: each is a counter attribute on every reacted-to activity. */
export const MAX_REACTION_KINDS = 50;

/** Comma-separated reaction kinds (the PUT /activities/{id}/reactions/{kind} rule, not `comment`), 1–50: a set. */
function parseReactionKinds(raw: string): ReadonlySet<string> {
  const kinds = raw
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  for (const k of kinds) {
    if (!/^[a-z0-9_]{1,32}$/.test(k)) throw new Error(`"${k}" is not a reaction kind (1–32 characters of [a-z0-9_])`);
    if (k === 'comment') throw new Error('`comment` counts comments: it is not a reaction kind');
  }
  const set = new Set(kinds);
  if (set.size === 0 || set.size > MAX_REACTION_KINDS) throw new Error(`expected 1–${MAX_REACTION_KINDS} kinds, got ${set.size}`);
  return set;
}

/** A delay SQS can hold a message for: 1 s – 15 min, whole seconds. */
function settleDelay(raw: string): number {
  const ms = parseDuration(raw);
  if (ms === undefined || ms < 1000 || ms > 900_000) throw new Error(`expected a duration from 1s to 900s, got "${raw}"`);
  return Math.ceil(ms / 1000);
}

/** `on` or `off`. */
function onOff(raw: string): boolean {
  const text = raw.trim().toLowerCase();
  if (text !== 'on' && text !== 'off') throw new Error(`expected on or off, got "${raw}"`);
  return text === 'on';
}

/** One parser per key. */
export const configParsers = {
  FANOUT_PULL_THRESHOLD: integer(1),
  MAX_FOLLOWING: integer(1),
  BACKFILL_LIMIT: integer(0),
  FANOUT_ACTIVE_WINDOW: parseDuration,
  STAMP_SPREAD: (raw: string) => {
    const ms = parseDuration(raw);
    if (ms !== undefined && ms > 900_000) throw new Error(`SQS delays a message at most 15m, got "${raw}"`);
    return ms;
  },
  FANOUT_BACKLOG_AFTER: (raw: string) => (raw.trim() === '0s' ? 0 : parseDuration(raw)),
  FEED_MAX_ITEMS: integerOrOff(1),
  FEED_MAX_SPAN: parseDuration,
  FEED_TTL: parseDuration,
  FEED_TRIM_CHANCE: chanceOrAuto,
  TIMELINE_TTL: parseDuration,
  ROLLUPS: parseRollupSpec,
  ROLLUP_TTL: parseDuration,
  ROLLUP_PARTITIONS: integerUpTo(1, 100, 'partitions'),
  ACTIVITY_BUCKET: parseBucketSize,
  ACTIVITY_BUCKETS: integerUpTo(1, 1000, 'buckets'),
  ACTIVITY_SEGMENTS: parseSegments,
  NOTIFICATIONS_MAX_ITEMS: integer(1),
  NOTIFICATIONS_TTL: parseDuration,
  NOTIFY_STRANGER_LIMIT: integerOrOff(0),
  REACTION_KINDS: parseReactionKinds,
  CONTROL_SETTLE: settleDelay,
  PROTECTED_VERBS: parseVerbList,
  RATE_LIMITS: parseRateLimits,
  FEED_GENERATOR_LOOPBACK: onOff,
} satisfies Record<ConfigKey, (raw: string) => unknown>;

export type ConfigValue<K extends ConfigKey> = ReturnType<(typeof configParsers)[K]>;

/** The parsed value of `key` from `env` (its env var, else the default); ConfigError names the key. */
export function readConfig<K extends ConfigKey>(key: K, env: NodeJS.ProcessEnv = process.env): ConfigValue<K> {
  const def = configKeys[key];
  const raw = env[def.envVar] ?? def.default;
  try {
    return configParsers[key](raw) as ConfigValue<K>;
  } catch (error) {
    throw new ConfigError(def.envVar, (error as Error).message);
  }
}

const settled = new Map<ConfigKey, unknown>();

/**
 * The one way functions read their configuration: the value of `key` in this process's
 * environment, parsed the first time it is asked for and kept (a function's environment does not
 * change while it runs). Lazy, so a module can be imported before the local runtime has set the
 * environment, and a bad value fails the request that needs it, naming the key.
 */
export function setting<K extends ConfigKey>(key: K): ConfigValue<K> {
  if (!settled.has(key)) settled.set(key, readConfig(key));
  return settled.get(key) as ConfigValue<K>;
}

/** The activity window (ACTIVITY_BUCKET × ACTIVITY_BUCKETS) as `setting` reads it. */
export const windowSetting = (): WindowConfig => ({ bucketMs: setting('ACTIVITY_BUCKET'), buckets: setting('ACTIVITY_BUCKETS') });

/** ACTIVITY_BUCKET and ACTIVITY_BUCKETS together: the window every writer and reader of activity entries shares. */
export const readWindowConfig = (env: NodeJS.ProcessEnv = process.env): WindowConfig => ({
  bucketMs: readConfig('ACTIVITY_BUCKET', env),
  buckets: readConfig('ACTIVITY_BUCKETS', env),
});

/** Parse every key from `lookup` (env or cdk.json context); throws ConfigError on the first bad one. */
export function validateConfig(lookup: (key: ConfigKey) => string | undefined): void {
  for (const key of Object.keys(configKeys) as ConfigKey[]) {
    const raw = lookup(key);
    readConfig(key, raw === undefined ? {} : { [configKeys[key].envVar]: raw });
  }
}
