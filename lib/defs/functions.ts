/**
 * Lambda function definitions: entry file, sizing, and exactly the access each one needs.
 * The CDK stack turns `access` into env vars + IAM grants in one call per resource; the local
 * runtime sets the same env vars. Adding a capability = adding a function here (and its routes
 * or event source).
 */
import type { ConfigKey } from './config.js';
import type { QueueId } from './queues.js';
import type { TableId } from './tables.js';

export type TableAccess = 'read' | 'write' | 'readwrite';

export interface FunctionDef {
  readonly id: FunctionId;
  /** Path from the project root to the module exporting `handler`. */
  readonly entry: string;
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  readonly tables: Partial<Record<TableId, TableAccess>>;
  /** Queues this function sends to (consuming is granted by its event source). */
  readonly sendsTo: readonly QueueId[];
  /** Runtime config keys (see `config.ts`) passed as env vars. */
  readonly config: readonly ConfigKey[];
}

export type FunctionId =
  | 'health'
  | 'me'
  | 'fallback'
  | 'outbox'
  | 'fanoutWorker'
  | 'rollups'
  | 'rollupsRead'
  | 'activityRead'
  | 'graph'
  | 'activities'
  | 'feedRead'
  | 'openapi';

const http = { timeoutSeconds: 10, memoryMb: 512 } as const;

export const functions: Record<FunctionId, FunctionDef> = {
  health: { id: 'health', entry: 'functions/handlers/health.ts', ...http, tables: {}, sendsTo: [], config: [] },
  me: { id: 'me', entry: 'functions/handlers/me.ts', ...http, tables: { graph: 'read' }, sendsTo: [], config: [] },
  fallback: { id: 'fallback', entry: 'functions/handlers/fallback.ts', ...http, tables: {}, sendsTo: [], config: [] },
  outbox: {
    id: 'outbox',
    entry: 'functions/handlers/outbox.ts',
    timeoutSeconds: 30,
    memoryMb: 512,
    tables: {},
    sendsTo: ['fanout'],
    config: [],
  },
  /** Follow graph routes; enqueues backfill/cleanup/pull jobs. Feed write: the pulled set in the follower's home-feed head. */
  graph: {
    id: 'graph',
    entry: 'functions/handlers/graph.ts',
    ...http,
    tables: { graph: 'readwrite', feed: 'write' },
    sendsTo: ['fanout'],
    config: ['FANOUT_PULL_THRESHOLD'],
  },
  fanoutWorker: {
    id: 'fanoutWorker',
    entry: 'functions/handlers/fanout-worker.ts',
    timeoutSeconds: 30,
    memoryMb: 1024,
    // graph write: pulled flags, pending flags on follow edges.
    tables: { feed: 'readwrite', graph: 'readwrite' },
    sendsTo: ['fanout'],
    // home-feed retention: copies get the FEED_TTL; count/span trims start from copy writes
    config: ['FANOUT_PULL_THRESHOLD', 'BACKFILL_LIMIT', 'FEED_MAX_ITEMS', 'FEED_MAX_SPAN', 'FEED_TTL'],
  },
  /** Feed stream → rollup rows and activity buckets (issue 5). Writes the stats table only. */
  rollups: {
    id: 'rollups',
    entry: 'functions/handlers/rollups.ts',
    timeoutSeconds: 60,
    memoryMb: 512,
    tables: { stats: 'write' },
    sendsTo: [],
    config: ['ROLLUPS', 'ROLLUP_TTL', 'ROLLUP_PARTITIONS', 'ACTIVITY_BUCKET', 'ACTIVITY_BUCKETS'],
  },
  rollupsRead: {
    id: 'rollupsRead',
    entry: 'functions/handlers/rollups-read.ts',
    ...http,
    tables: { stats: 'read' },
    sendsTo: [],
    config: ['ROLLUP_TTL', 'ROLLUP_PARTITIONS'],
  },
  activityRead: {
    id: 'activityRead',
    entry: 'functions/handlers/activity-read.ts',
    ...http,
    tables: { stats: 'read' },
    sendsTo: [],
    config: ['ACTIVITY_BUCKET', 'ACTIVITY_BUCKETS', 'ACTIVITY_SEGMENTS'],
  },
  /** POST /activities, GET and DELETE /activities/{id}: originals, the author's own copy, foreignId markers. */
  activities: {
    id: 'activities',
    entry: 'functions/handlers/activities.ts',
    ...http,
    tables: { feed: 'readwrite', graph: 'readwrite' },
    sendsTo: [],
    config: ['TIMELINE_TTL', 'FEED_MAX_ITEMS', 'FEED_MAX_SPAN', 'FEED_TTL'],
  },
  /** GET /feed, GET /users/{userId}/activities: one Query on one partition of the feed table. */
  feedRead: {
    id: 'feedRead',
    entry: 'functions/handlers/feed-read.ts',
    ...http,
    tables: { feed: 'read' },
    sendsTo: [],
    config: ['TIMELINE_TTL', 'FEED_MAX_ITEMS', 'FEED_MAX_SPAN', 'FEED_TTL'],
  },
  openapi: { id: 'openapi', entry: 'functions/handlers/openapi.ts', ...http, tables: {}, sendsTo: [], config: [] },
};

export const functionList: readonly FunctionDef[] = Object.values(functions);
