/**
 * Deployment configuration passed to functions as env vars. Locally the value comes from the
 * environment of `npm start`; in AWS from the `cdk.json` context key. Each function lists the
 * keys it needs in `functions.ts`; the functions validate values once at cold start
 * (`functions/core/config.ts`) and `cdk synth` / `npm start` validate them up front.
 */
export interface ConfigKeyDef {
  readonly envVar: string;
  readonly contextKey: string;
  readonly default: string;
  readonly description: string;
}

export const configKeys = {
  FANOUT_PULL_THRESHOLD: {
    envVar: 'FANOUT_PULL_THRESHOLD',
    contextKey: 'fanoutPullThreshold',
    default: '10000',
    description: 'Authors with at least this many followers are pulled at read time instead of fanned out.',
  },
  BACKFILL_LIMIT: {
    envVar: 'BACKFILL_LIMIT',
    contextKey: 'backfillLimit',
    default: '100',
    description: "How many of a followee's recent posts a new follow copies into the follower's feed.",
  },
  FEED_MAX_ITEMS: {
    envVar: 'FEED_MAX_ITEMS',
    contextKey: 'feedMaxItems',
    default: '1000',
    description: 'Retention by count: a feed keeps at most this many items, or off (saves one write per item).',
  },
  FEED_MAX_SPAN: {
    envVar: 'FEED_MAX_SPAN',
    contextKey: 'feedMaxSpan',
    default: 'off',
    description: "Retention by span: items older than the feed's newest item minus this duration are dropped.",
  },
  FEED_TTL: {
    envVar: 'FEED_TTL',
    contextKey: 'feedTtl',
    default: '30d',
    description: 'Retention by age: feed items expire this long after their time (DynamoDB TTL), or off.',
  },
  ROLLUPS: {
    envVar: 'ROLLUPS',
    contextKey: 'rollups',
    default: '',
    description: 'Rollup spec: comma-separated event_type:func(attribute), func in sum/min/max (any case).',
  },
  ROLLUP_TTL: {
    envVar: 'ROLLUP_TTL',
    contextKey: 'rollupTtl',
    default: '90d',
    description: "Rollup rows expire this long after their minute (DynamoDB TTL, filtered on read too), or off.",
  },
  ROLLUP_PARTITIONS: {
    envVar: 'ROLLUP_PARTITIONS',
    contextKey: 'rollupPartitions',
    default: '1',
    description: 'Partitions per series and day (hot-partition split). Only ever raise it: reads query 0..n-1.',
  },
  ACTIVITY_BUCKET: {
    envVar: 'ACTIVITY_BUCKET',
    contextKey: 'activityBucket',
    default: '1h',
    description: 'Recent-activity windows: size of one bucket (must divide a day evenly).',
  },
  ACTIVITY_BUCKETS: {
    envVar: 'ACTIVITY_BUCKETS',
    contextKey: 'activityBuckets',
    default: '24',
    description: 'Recent-activity windows: buckets kept per user; older buckets expire (TTL) and are filtered on read.',
  },
  ACTIVITY_SEGMENTS: {
    envVar: 'ACTIVITY_SEGMENTS',
    contextKey: 'activitySegments',
    default: 'power=50,casual=1',
    description: 'Minimum activities in the full window for each segment (scaled to shorter windows); below casual is inactive.',
  },
} as const satisfies Record<string, ConfigKeyDef>;

export type ConfigKey = keyof typeof configKeys;

/** Resolve a config value: explicit source (env or context) first, then the default. */
export function resolveConfig(key: ConfigKey, lookup: (def: ConfigKeyDef) => string | undefined): string {
  const def = configKeys[key];
  return lookup(def) ?? def.default;
}
