/**
 * Lambda function definitions: entry file, sizing, and exactly the access each one needs.
 * The CDK stack turns `access` into env vars + IAM grants in one call per resource; the local
 * runtime sets the same env vars. Adding a capability = adding a function here (and its routes
 * or event source).
 */
import type { ConfigKey } from './config.js';
import type { FunctionId } from './function-ids.js';
import { type JobRoute, jobRoutes, lanesOfRoute } from './job-routes.js';
import { type LaneId, lanes, laneQueue, laneWorker, PRE_LANES_QUEUE, settleLaneOf } from './lanes.js';
import type { QueueId } from './queues.js';
import type { TableId } from './tables.js';

/**
 * The DynamoDB actions a function may call on a table — exactly those its code paths send
 * (derived from functions/stores/*.ts; a transaction needs the per-item action of each of its
 * items: Put → PutItem, Update → UpdateItem, Delete → DeleteItem, ConditionCheck →
 * ConditionCheckItem). `Scan` only for a data-model migration (the maintenance worker, which runs
 * it: services/migrations/). No index is ever granted.
 */
export type DynamoAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem' | 'ConditionCheckItem' | 'Scan';

export type TableAccess = readonly DynamoAction[];

export interface FunctionDef {
  readonly id: FunctionId;
  /** Path from the project root to the module exporting `handler`. */
  readonly entry: string;
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  /** Per table, the exact DynamoDB actions granted (see DynamoAction). */
  readonly tables: Partial<Record<TableId, TableAccess>>;
  /** Queues this function sends to (consuming is granted by its event source): derived from the job routes, queuesSentBy. */
  readonly sendsTo: readonly QueueId[];
  /** Runtime config keys (see `config.ts`) passed as env vars. */
  readonly config: readonly ConfigKey[];
  /**
   * The realtime API (realtime.ts): `pushes` = posts to WebSocket connections (env
   * REALTIME_ENDPOINT + `execute-api:ManageConnections` on its `@connections`); `url` = knows the
   * URL clients connect to (env REALTIME_URL); `jwt` = checks JWTs (env JWT_ISSUER, JWT_AUDIENCE).
   */
  readonly realtime?: { readonly pushes?: boolean; readonly url?: boolean; readonly jwt?: boolean };
}

export type { FunctionId };

const http = { timeoutSeconds: 10, memoryMb: 512 } as const;

/**
 * What a function serving a caller's routes needs to spend their rate-limit tokens
 * (services/rate-limits.ts): UpdateItem on the limits table, nothing else there. Functions whose
 * routes need the admin scope (rollups, bulk import) do without: admin tokens are not limited.
 */
const RATE_LIMITED = { limits: ['UpdateItem'] } as const satisfies Partial<Record<TableId, TableAccess>>;

/** A lane's consumer: its entry and its lane's timeout. */
function laneWorkerDef(lane: LaneId, access: Pick<FunctionDef, 'tables' | 'config' | 'realtime'>): Definition {
  return {
    id: laneWorker(lane),
    entry: `functions/handlers/${lane}-worker.ts`,
    timeoutSeconds: lanes[lane].timeoutSeconds,
    memoryMb: 1024,
    ...access,
  };
}

/**
 * What a fan-out page needs. Pushes (services/realtime): the connections (graph Query), a pulled
 * author's connected followers' edges (graph BatchGetItem), a dead connection's item (graph DeleteItem).
 */
const FANOUT_ACCESS = {
  tables: { feed: ['GetItem', 'BatchGetItem', 'Query', 'BatchWriteItem', 'UpdateItem'], graph: ['GetItem', 'Query', 'BatchGetItem', 'DeleteItem'] },
  config: ['FEED_MAX_ITEMS', 'FEED_MAX_SPAN', 'FEED_TTL', 'FEED_TRIM_CHANCE', 'FANOUT_ACTIVE_WINDOW'],
  realtime: { pushes: true },
} as const satisfies Pick<FunctionDef, 'tables' | 'config' | 'realtime'>;

/**
 * What a first page of every fanout-lane kind needs beyond FANOUT_ACCESS. tagFanout: tag-feed
 * entries (feed BatchWriteItem), tag followers and the author's controls (graph Query), trend
 * markers and counters (stats PutItem/UpdateItem in a transaction, GetItem), the top list (stats
 * GetItem, PutItem). TIMELINE_TTL: a tag-feed entry expires with its original.
 */
const FIRST_PAGE_ACCESS = {
  tables: { ...FANOUT_ACCESS.tables, stats: ['GetItem', 'PutItem', 'UpdateItem'] },
  config: [...FANOUT_ACCESS.config, 'TIMELINE_TTL'],
} as const satisfies Pick<FunctionDef, 'tables' | 'config'>;

/** A function as written below; its `sendsTo` is derived. */
type Definition = Omit<FunctionDef, 'sendsTo'>;

const definitions: Record<FunctionId, Definition> = {
  health: { id: 'health', entry: 'functions/handlers/health.ts', ...http, tables: {}, config: [] },
  // profileOf → profileAndErasure (the profile and its follower-count shards: Query; the erase mark: GetItem)
  me: { id: 'me', entry: 'functions/handlers/me.ts', ...http, tables: { ...RATE_LIMITED, graph: ['Query', 'GetItem'] }, config: ['RATE_LIMITS'] },
  fallback: { id: 'fallback', entry: 'functions/handlers/fallback.ts', ...http, tables: {}, config: [] },
  outbox: {
    id: 'outbox',
    entry: 'functions/handlers/outbox.ts',
    timeoutSeconds: 30,
    memoryMb: 512,
    tables: {},
    config: [],
  },
  /** Follow graph routes; enqueues backfill/cleanup/pull jobs. Feed write: the pulled set in the follower's home-feed head. */
  graph: {
    id: 'graph',
    entry: 'functions/handlers/graph.ts',
    ...http,
    // getProfile/getEdge: GetItem; listPage: Query; createEdge/removeEdge transactions: Put (edge,
    // list entries), Update (edge, counters), Delete (list entries) — and Update of the follower's
    // home-feed head (pulled set) in the feed table.
    // The follow transaction also checks the followee's block and the follower's mute
    // (ConditionCheckItem); a follow first reads the mute, the erase mark and the follower-count
    // shard it adds to (pulled) in one BatchGetItem. A follow asks whether the followee ever posted
    // (feed Query, Limit 1) to skip a backfill that would copy nothing.
    // Tag follows: one transaction (graph Put/Update/Delete; the head's pulled tags, feed UpdateItem).
    tables: {
      ...RATE_LIMITED,
      graph: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
      feed: ['UpdateItem', 'Query'],
    },
    config: ['RATE_LIMITS', 'FANOUT_PULL_THRESHOLD', 'MAX_FOLLOWING', 'CONTROL_SETTLE'],
  },
  // Job lanes (lanes.ts): one consumer per lane, each granted what its job kinds do (services/jobs/runners.ts).
  // The queues each sends to follow from the job routes (queuesSentBy below).
  /**
   * fanout: copies of a new post. feed: the pages' originals with the authors' own copies, before
   * and after the writes (BatchGetItem), the trims' readHead (GetItem), trims' copyKeys (Query),
   * copies in/out (BatchWriteItem), recordTrimTop (UpdateItem). graph: the first pages' authors'
   * profiles, in the same BatchGetItem as the originals, follower pages (Query). Edits: each copy's
   * conditional UpdateItem; who reacted (graph Query) and commented (feed Query), told of it.
   */
  fanoutWorker: laneWorkerDef('fanout', {
    // Its queue held every kind of job before the lanes: it forwards those to their lanes
    // (services/jobs/legacy-queue.ts), until the release after 0.2.0.
    // A job that waited too long goes to fanoutBacklog (services/jobs/backlog.ts).
    tables: FIRST_PAGE_ACCESS.tables,
    // FANOUT_BACKLOG_AFTER: how long a job may wait to run here.
    config: [...FIRST_PAGE_ACCESS.config, 'FANOUT_BACKLOG_AFTER'],
    realtime: FANOUT_ACCESS.realtime,
  }),
  /** The jobs handed on from fanout under a standing backlog: what the fanout worker does with them. */
  fanoutBacklogWorker: {
    // Further pages go to fanoutTail; an edit's notices (who reacted or commented) to notify.
    ...laneWorkerDef('fanoutBacklog', { ...FIRST_PAGE_ACCESS, realtime: FANOUT_ACCESS.realtime }),
    entry: 'functions/handlers/fanout-backlog-worker.ts',
  },
  /** A large fan-out's further pages: what the fanout worker does, on its own pool and queue. */
  fanoutTailWorker: { ...laneWorkerDef('fanoutTail', FANOUT_ACCESS), entry: 'functions/handlers/fanout-tail-worker.ts' },
  /**
   * followup: backfill, retract, cleanup, muteCleanup. feed: newestOriginals and originalKeysWhile
   * (Query), liveWithOwnCopies (BatchGetItem), copies in/out (BatchWriteItem), trims (GetItem, Query,
   * UpdateItem). graph: edges and profiles (GetItem), follower pages (Query), clearPending
   * (UpdateItem), deleteGoneEdge's transaction (DeleteItem, UpdateItem).
   */
  // stamp jobs: the reader's edges (graph Query), their followers entries (graph UpdateItem), the
  // edges re-checked after a rebuild (graph BatchGetItem), the head's bound (feed UpdateItem, with
  // graph ConditionCheckItem on the erase mark in its transaction); their followed tags and controls
  // (graph Query), tag-follower entries (graph UpdateItem), tag feeds since the bound (feed Query).
  followupWorker: laneWorkerDef('followup', {
    // tagRetract, tagCleanup: follow edges and tag follows (graph BatchGetItem, Query), tag entries (feed Query, BatchWriteItem).
    tables: {
      feed: ['GetItem', 'BatchGetItem', 'Query', 'BatchWriteItem', 'UpdateItem'],
      graph: ['GetItem', 'Query', 'UpdateItem', 'DeleteItem', 'BatchGetItem', 'ConditionCheckItem'],
    },
    config: ['BACKFILL_LIMIT', 'FEED_MAX_ITEMS', 'FEED_MAX_SPAN', 'FEED_TTL', 'FEED_TRIM_CHANCE', 'FANOUT_ACTIVE_WINDOW'],
    realtime: { pushes: true },
  }),
  /**
   * background: a reader's restamp (stamp.ts with nothing missing): what followupWorker grants a
   * stamp job — should the bound pass before it runs, it writes back as a stamp does, and pushes
   * those copies (graph DeleteItem: a gone connection's item).
   */
  backgroundWorker: laneWorkerDef('background', {
    tables: {
      feed: ['GetItem', 'BatchGetItem', 'Query', 'BatchWriteItem', 'UpdateItem'],
      graph: ['GetItem', 'Query', 'UpdateItem', 'BatchGetItem', 'ConditionCheckItem', 'DeleteItem'],
    },
    config: ['FEED_MAX_ITEMS', 'FEED_MAX_SPAN', 'FEED_TTL', 'FEED_TRIM_CHANCE', 'FANOUT_ACTIVE_WINDOW'],
    realtime: { pushes: true },
  }),
  /**
   * notify: notification groups. graph: group + claims + head, the recipient's mutes, blocks and
   * follow edges (BatchGetItem), the head for a count trim and for the counts pushed (GetItem),
   * groups and claims (Query), group and order items (PutItem, DeleteItem), claims, head and a
   * stranger's quota (UpdateItem), trims (BatchWriteItem); feed: the check that the activity is
   * still live (ConditionCheckItem).
   */
  notifyWorker: laneWorkerDef('notify', {
    tables: {
      feed: ['ConditionCheckItem'],
      graph: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem', 'UpdateItem', 'BatchWriteItem', 'ConditionCheckItem'],
    },
    config: ['NOTIFICATIONS_MAX_ITEMS', 'NOTIFICATIONS_TTL', 'NOTIFY_STRANGER_LIMIT'],
    realtime: { pushes: true },
  }),
  /**
   * maintenance: erase, purge, pull/unpull, the settle re-runs of cleanup/muteCleanup and data-model
   * migrations. The erase
   * deletes originals and counters (feed DeleteItem), the reactions' and comments' transactions
   * (feed PutItem/DeleteItem/UpdateItem), the erase mark (graph PutItem), activity-window entries
   * (stats Query, BatchWriteItem); a purge's reactions, comments and notification groups; pull sets
   * the profile flag and adds to pulled sets (addPulledWhileFollowing's transaction).
   */
  maintenanceWorker: laneWorkerDef('maintenance', {
    tables: {
      feed: ['GetItem', 'BatchGetItem', 'Query', 'BatchWriteItem', 'UpdateItem', 'ConditionCheckItem', 'DeleteItem', 'PutItem'],
      // Scan: a data-model migration's segments (services/migrations/job.ts), which write the
      // graph table only, and its version item and checkpoints there.
      graph: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem', 'Scan'],
      stats: ['Query', 'BatchWriteItem'],
    },
    // CONTROL_SETTLE: an erase waits that long between its phases (erase/erase.ts).
    config: [
      'FANOUT_PULL_THRESHOLD',
      'BACKFILL_LIMIT',
      'FEED_MAX_ITEMS',
      'FEED_MAX_SPAN',
      'FEED_TTL',
      'FEED_TRIM_CHANCE',
      'NOTIFICATIONS_MAX_ITEMS',
      'NOTIFICATIONS_TTL',
      'CONTROL_SETTLE',
    ],
    realtime: { pushes: true },
  }),
  /** Feed stream → rollup rows and activity entries, once per tumbling window. Writes the stats table only. */
  rollups: {
    id: 'rollups',
    entry: 'functions/handlers/rollups.ts',
    timeoutSeconds: 60,
    memoryMb: 512,
    // stats: a segment's rows and entries (BatchWriteItem), its commit mark (PutItem), the shard's
    // marks (Query); graph: the erase marks of a segment's actors (BatchGetItem).
    tables: { stats: ['BatchWriteItem', 'PutItem', 'Query'], graph: ['BatchGetItem'] },
    config: ['ROLLUPS', 'ROLLUP_TTL', 'ROLLUP_PARTITIONS', 'ACTIVITY_BUCKET', 'ACTIVITY_BUCKETS'],
  },
  rollupsRead: {
    id: 'rollupsRead',
    entry: 'functions/handlers/rollups-read.ts',
    ...http,
    tables: { stats: ['Query'] }, // readRollupRows
    config: ['ROLLUP_TTL', 'ROLLUP_PARTITIONS'],
  },
  activityRead: {
    id: 'activityRead',
    entry: 'functions/handlers/activity-read.ts',
    ...http,
    tables: { ...RATE_LIMITED, stats: ['Query'] }, // readActivityEntries
    config: ['RATE_LIMITS', 'ACTIVITY_BUCKET', 'ACTIVITY_BUCKETS', 'ACTIVITY_SEGMENTS'],
  },
  /** POST /activities, GET, PATCH and DELETE /activities/{id}, its history: originals, the author's own copy, foreignId markers. */
  activities: {
    id: 'activities',
    entry: 'functions/handlers/activities.ts',
    ...http,
    // feed: putOriginal (PutItem, also in putOriginalWithMarker's transaction), getOriginal and trims'
    // readHead (GetItem), markOriginalDeleted, closeCounter and recordTrimTop (UpdateItem), the own
    // copy in/out (BatchWriteItem), trims' copyKeys (Query), the reaction counter (BatchGetItem).
    // graph: the foreignId marker — Put (in the transaction), GetItem, conditional DeleteItem; the
    // caller's own reactions (BatchGetItem). Edits: one transaction of the original (UpdateItem) and
    // its history entries (PutItem, DeleteItem); history pages (Query).
    tables: {
      ...RATE_LIMITED,
      feed: ['PutItem', 'GetItem', 'UpdateItem', 'BatchWriteItem', 'Query', 'BatchGetItem', 'DeleteItem'],
      graph: ['PutItem', 'GetItem', 'DeleteItem', 'BatchGetItem'],
    },
    config: ['RATE_LIMITS', 'TIMELINE_TTL', 'FEED_MAX_ITEMS', 'FEED_MAX_SPAN', 'FEED_TTL', 'FEED_TRIM_CHANCE', 'PROTECTED_VERBS'],
  },
  /** GET /feed, GET /users/{userId}/activities: one Query on one partition of the feed table. */
  feedRead: {
    id: 'feedRead',
    entry: 'functions/handlers/feed-read.ts',
    ...http,
    // runPage (Query); readHead (GetItem: the pulled set, read beside a later page); `enrich=reactions`:
    // counters (feed) and the caller's reactions (graph), one BatchGetItem each. Tags: the reader's
    // control partition (graph Query), the trending top list (stats GetItem).
    // graph Query also: a returning reader's follows (their edges) and followed tags; sends their
    // stamp job (followup), or with nothing missing their restamp (background, spread: STAMP_SPREAD).
    tables: { ...RATE_LIMITED, feed: ['Query', 'GetItem', 'BatchGetItem'], graph: ['BatchGetItem', 'Query'], stats: ['GetItem'] },
    config: ['RATE_LIMITS', 'TIMELINE_TTL', 'FEED_MAX_ITEMS', 'FEED_MAX_SPAN', 'FEED_TTL', 'FANOUT_ACTIVE_WINDOW', 'STAMP_SPREAD'],
  },
  /**
   * Ranked feeds (services/ranking/): definitions, snapshots and reader marks (graph GetItem,
   * PutItem; a definition with its list entry in one transaction: PutItem, DeleteItem; GET /feeds:
   * Query). Candidates are read as feedRead reads feeds (feed Query, GetItem; graph Query: controls,
   * a returning reader's follows and tags; sends their stamp job to followup), then counters and
   * originals (feed BatchGetItem) and the reader's follow edges (graph BatchGetItem).
   */
  rankedFeeds: {
    id: 'rankedFeeds',
    entry: 'functions/handlers/ranked-feeds.ts',
    ...http,
    // graph UpdateItem: a generator feed's breaker, on its definition
    tables: { ...RATE_LIMITED, feed: ['Query', 'GetItem', 'BatchGetItem'], graph: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'BatchGetItem'] },
    config: ['RATE_LIMITS', 'TIMELINE_TTL', 'FEED_MAX_ITEMS', 'FEED_MAX_SPAN', 'FEED_TTL', 'FANOUT_ACTIVE_WINDOW', 'STAMP_SPREAD', 'FEED_GENERATOR_LOOPBACK'],
  },
  /** Reactions and comments: one transaction per change of the user's item and the activity's counter. */
  social: {
    id: 'social',
    entry: 'functions/handlers/social.ts',
    ...http,
    // feed: the activity (getOriginal) and a comment (GetItem), comment pages (Query), the counter
    // (UpdateItem) and the comment (PutItem, DeleteItem) inside the transactions.
    // graph: the user's reaction item and their ledger entries (UpdateItem, PutItem, DeleteItem, in
    // the transactions); the activity author's block of the caller, the viewer check (BatchGetItem).
    tables: {
      ...RATE_LIMITED,
      feed: ['GetItem', 'Query', 'UpdateItem', 'PutItem', 'DeleteItem'],
      graph: ['UpdateItem', 'PutItem', 'DeleteItem', 'BatchGetItem'],
    },
    config: ['RATE_LIMITS', 'REACTION_KINDS'],
  },
  /** Mutes and blocks. A block unfollows both ways (as the graph function does); a mute flags the edge. */
  controls: {
    id: 'controls',
    entry: 'functions/handlers/controls.ts',
    ...http,
    // graph: edges and profiles (GetItem), follow checks (BatchGetItem), lists (Query); the mute and
    // block transactions and an unfollow's: Put/Delete (controls, list entries), Update (edges,
    // counters, list flags); an unmute's addPulledWhileFollowing (ConditionCheckItem).
    // feed: the pulled set in the muter's (or unfollower's) home-feed head (UpdateItem).
    tables: {
      ...RATE_LIMITED,
      graph: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem', 'UpdateItem', 'ConditionCheckItem'],
      feed: ['UpdateItem'],
    },
    config: ['RATE_LIMITS', 'CONTROL_SETTLE', 'FANOUT_PULL_THRESHOLD'],
  },
  /** GET /me/export (read-only), DELETE /me and DELETE /users/{userId} (start the erase job). */
  account: {
    id: 'account',
    entry: 'functions/handlers/account.ts',
    ...http,
    // export: the timeline (feed Query); follow lists, ledger, notification order items, mutes and
    // blocks (graph Query), comments (feed BatchGetItem), profile (graph Query) and erase mark
    // (graph GetItem), the activity window (stats Query). Erase: the mark (graph PutItem) and its
    // shard copies (graph BatchWriteItem), the job.
    tables: { ...RATE_LIMITED, feed: ['Query', 'BatchGetItem'], graph: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'BatchWriteItem'], stats: ['Query'] },
    config: ['RATE_LIMITS', 'TIMELINE_TTL', 'FEED_MAX_ITEMS', 'FEED_MAX_SPAN', 'FEED_TTL', 'ACTIVITY_BUCKET', 'ACTIVITY_BUCKETS', 'ACTIVITY_SEGMENTS'],
  },
  /** GET /notifications, counts, and marking seen/read. */
  notifications: {
    id: 'notifications',
    entry: 'functions/handlers/notifications.ts',
    ...http,
    // graph: the head and a group (GetItem), pages and every group for "mark all" (Query); a mark is
    // a transaction of the group and its order item (PutItem) and the head (UpdateItem). A mark
    // pushes the new counts to the user's connections (Query; a dead one's item: DeleteItem).
    tables: { ...RATE_LIMITED, graph: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    config: ['RATE_LIMITS', 'NOTIFICATIONS_MAX_ITEMS', 'NOTIFICATIONS_TTL'],
    realtime: { pushes: true },
  },
  openapi: { id: 'openapi', entry: 'functions/handlers/openapi.ts', ...http, tables: {}, config: [] },
  /** The WebSocket API's routes (realtime.ts): $connect records the connection (graph PutItem), $disconnect forgets it (DeleteItem). */
  /** A connect records the connection and, its user reading, reads their feed head's activity bound (feed GetItem) and may send their stamp job. */
  realtimeSocket: {
    id: 'realtimeSocket',
    entry: 'functions/handlers/realtime-socket.ts',
    ...http,
    tables: { graph: ['PutItem', 'DeleteItem'], feed: ['GetItem'] },
    config: ['FANOUT_ACTIVE_WINDOW', 'STAMP_SPREAD'],
  },
  /** The WebSocket API's $connect authorizer: the JWT from `?token=`, checked as the HTTP API's authorizer does. No data. */
  realtimeAuthorizer: {
    id: 'realtimeAuthorizer',
    entry: 'functions/handlers/realtime-authorizer.ts',
    ...http,
    tables: {},
    config: [],
    realtime: { jwt: true },
  },
  /** GET /realtime (where to connect) and GET /realtime/missed (the catch-up: home-feed Query, filtered by write time). */
  realtime: {
    id: 'realtime',
    entry: 'functions/handlers/realtime.ts',
    ...http,
    tables: { ...RATE_LIMITED, feed: ['Query'] },
    config: ['RATE_LIMITS', 'FEED_MAX_ITEMS', 'FEED_MAX_SPAN', 'FEED_TTL'],
    realtime: { url: true },
  },
  /**
   * POST /batch/follows and /batch/activities (admin). Follows — graph: the import's reads
   * (BatchGetItem), its journal (GetItem, PutItem), list entries and edges (BatchWriteItem), a
   * follower's recent follows (Query), counter transactions (PutItem mark, UpdateItem counters);
   * repairs as unfollow, mute and pull do (GetItem, Query, UpdateItem, DeleteItem,
   * ConditionCheckItem; feed UpdateItem: pulled sets); whether a followee has posts (feed Query).
   * Activities: as the activities function posts (feed PutItem, GetItem, UpdateItem,
   * BatchWriteItem, Query; graph PutItem in the foreignId transaction, GetItem); a known foreignId
   * edits as the activities function does (one transaction: feed UpdateItem, history PutItem/DeleteItem).
   */
  batchImport: {
    id: 'batchImport',
    entry: 'functions/handlers/batch-import.ts',
    timeoutSeconds: 30,
    memoryMb: 1024,
    tables: {
      graph: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'],
      feed: ['PutItem', 'GetItem', 'UpdateItem', 'BatchWriteItem', 'Query', 'DeleteItem'],
    },
    config: [
      'MAX_FOLLOWING',
      'FANOUT_PULL_THRESHOLD',
      'CONTROL_SETTLE',
      'TIMELINE_TTL',
      'FEED_MAX_ITEMS',
      'FEED_MAX_SPAN',
      'FEED_TTL',
      'FEED_TRIM_CHANCE',
      'PROTECTED_VERBS',
    ],
  },
  /**
   * Run by the deploy (a CDK trigger, lib/constructs/migration-trigger.ts): reads the tables' data
   * model (graph GetItem: the version item) and, when it is older, queues the migration's jobs on
   * the maintenance lane (services/migrations/job.ts). Reads nothing else, writes nothing.
   */
  migrationStart: {
    id: 'migrationStart',
    entry: 'functions/handlers/migration-start.ts',
    timeoutSeconds: 30,
    memoryMb: 256,
    tables: { graph: ['GetItem'] },
    config: [],
  },
};

const routeList: readonly JobRoute[] = Object.values(jobRoutes);

/**
 * The queues `fn` sends to, from the job routes: the lane of each kind it sends (a settle re-run's:
 * maintenance, unless the lane takes its own delayed jobs). A lane's worker also sends to its own
 * queue (a job's next page or phase), to the further-page lane of each kind it runs, and to its
 * lane's backlog (services/jobs/backlog.ts hands waiting jobs on); the pre-lanes queue's worker to
 * the lane of every kind that was queued before the lanes (services/jobs/legacy-queue.ts forwards it).
 */
export function queuesSentBy(fn: FunctionId): QueueId[] {
  const sent = new Set<LaneId>();
  for (const route of routeList) {
    if (route.sentBy.includes(fn)) sent.add(route.lane);
    if (route.settledBy?.includes(fn)) sent.add(settleLaneOf(route.lane));
  }
  const lane = (Object.keys(lanes) as LaneId[]).find((l) => laneWorker(l) === fn);
  if (lane !== undefined) {
    const backlog = lanes[lane].backlog;
    sent.add(lane);
    if (backlog) sent.add(backlog);
    for (const route of routeList) {
      if (route.tailLane && lanesOfRoute(route).includes(lane)) sent.add(route.tailLane);
      if (lane === PRE_LANES_QUEUE && !route.sinceLanes) sent.add(route.lane);
    }
  }
  return [...sent].sort().map(laneQueue);
}

export const functions: Record<FunctionId, FunctionDef> = Object.fromEntries(
  Object.values(definitions).map((def): [FunctionId, FunctionDef] => [def.id, { ...def, sendsTo: queuesSentBy(def.id) }]),
) as Record<FunctionId, FunctionDef>;

export const functionList: readonly FunctionDef[] = Object.values(functions);
