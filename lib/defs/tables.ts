/**
 * Table definitions, declared once and read by both the CDK stack (`lib/tickfeed-stack.ts`)
 * and the local runtime (`local/`). Pure data: nothing here may import aws-cdk-lib, because
 * Lambda bundles import these names too.
 */

export type AttributeType = 'S' | 'N';

export interface KeyAttribute {
  readonly name: string;
  readonly type: AttributeType;
}

export interface TableDef {
  /** Logical id, used for construct ids and local physical names. */
  readonly id: TableId;
  /** Env var through which functions receive the physical table name. */
  readonly envVar: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  /** Only one table may stream: DynamoDB Local slows ~20x with two stream tables in one JVM. */
  readonly stream?: 'NEW_AND_OLD_IMAGES';
  readonly ttlAttribute?: string;
}

export type TableId = 'feed' | 'graph' | 'stats' | 'limits';

/**
 * feed  — what users own and what they are shown, in separate partitions of one table (one stream):
 *         `t#<author>` is the author's timeline of originals, `f#<owner>` their home feed of copies
 *         (the author's own posts included) plus its head item at rk 0. rk = MAX − server ticks,
 *         so ascending rk is newest first. Its stream is the outbox for fan-out and the source of
 *         rollups. No index: every read is a Query on one partition.
 * feed also holds what others attach to an activity: its comments (`c#<activityId>`, by rk) and its
 *         reaction counter (`x#<activityId>`, rk 0), whose stream records notify the author.
 * graph — follow edges and lists, profile counters, foreignId markers, reactions
 *         (`r#<activityId>` / user) and notification feeds (`n#<user>`; string keys). Notification
 *         groups expire by TTL.
 * stats — rollup rows and recent-activity entries; expiring rows carry a TTL.
 * limits — the per-caller rate buckets (RATE_LIMITS): one small item per user and class, written
 *          only by a conditional UpdateItem when a Lambda instance's own allowance runs out,
 *          expiring (TTL) once the bucket is full again. A table of its own, so the one grant the
 *          HTTP functions need for it (UpdateItem) reaches nothing else.
 */
export const tables: Record<TableId, TableDef> = {
  feed: {
    id: 'feed',
    envVar: 'FEED_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'rk', type: 'N' },
    stream: 'NEW_AND_OLD_IMAGES',
    ttlAttribute: 'expiresAt',
  },
  graph: {
    id: 'graph',
    envVar: 'GRAPH_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    ttlAttribute: 'expiresAt',
  },
  stats: {
    id: 'stats',
    envVar: 'STATS_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    ttlAttribute: 'expiresAt',
  },
  limits: {
    id: 'limits',
    envVar: 'LIMITS_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    ttlAttribute: 'expiresAt',
  },
};

export const tableList: readonly TableDef[] = Object.values(tables);
