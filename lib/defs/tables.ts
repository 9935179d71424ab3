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

export interface GlobalIndexDef {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
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
  readonly globalIndexes: readonly GlobalIndexDef[];
}

export type TableId = 'feed' | 'graph' | 'stats';

/**
 * feed  — every feed item: pk = feed owner's user id, rk = range key (MAX − ticks, plus a
 *         discriminator). The author's original carries `author`, which puts it in the sparse
 *         `byAuthor` index (a user's own posts). Its stream is the outbox for fan-out and the
 *         source of rollups.
 * graph — follow edges, profile counters, idempotency markers (string keys).
 * stats — rollup rows and recent-activity buckets; expiring rows carry a TTL.
 */
export const tables: Record<TableId, TableDef> = {
  feed: {
    id: 'feed',
    envVar: 'FEED_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'rk', type: 'N' },
    stream: 'NEW_AND_OLD_IMAGES',
    ttlAttribute: 'expiresAt',
    globalIndexes: [
      {
        indexName: 'byAuthor',
        partitionKey: { name: 'author', type: 'S' },
        sortKey: { name: 'rk', type: 'N' },
      },
    ],
  },
  graph: {
    id: 'graph',
    envVar: 'GRAPH_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    globalIndexes: [],
  },
  stats: {
    id: 'stats',
    envVar: 'STATS_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    ttlAttribute: 'expiresAt',
    globalIndexes: [],
  },
};

export const tableList: readonly TableDef[] = Object.values(tables);
