import type { JWK } from 'jose';
import type { QueueId, TableId } from '../../lib/defs/index.js';

/** What the global setup tells test workers about the running local stack. */
export interface LocalStackInfo {
  apiUrl: string;
  dynamoEndpoint: string;
  sqsEndpoint: string;
  dynamoPid: number;
  tableNames: Record<TableId, string>;
  queueUrls: Record<QueueId, string>;
  /** Env vars the handlers run with; copied into every worker so tests can call handlers too. */
  env: Record<string, string>;
  privateJwk: JWK;
  publicJwk: JWK;
}
