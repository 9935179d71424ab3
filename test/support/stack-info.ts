import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JWK } from 'jose';
import type { QueueId, TableId } from '../../lib/defs/index.js';
import type { LocalKeys } from '../../local/jwt.js';

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

/**
 * A running local stack as the test kit reaches it: its HTTP API, the keys its authorizer trusts,
 * and its tables. `shared` (support/local.ts) is the run's stack; `own` (support/own-stack.ts) a
 * test file's own. Calls and seeds name the one they go to: `api(…, { on: own })`.
 */
export interface TestStack {
  readonly apiUrl: string;
  readonly keys: LocalKeys;
  readonly doc: DynamoDBDocumentClient;
  readonly tableNames: Record<TableId, string>;
  /**
   * Whether `api()` checks every answer against the OpenAPI document (support/response-log.ts). Off
   * for own stacks: they inject faults, whose answers (a 500 from a refused queue) no document lists.
   */
  readonly checkResponses: boolean;
  /** How far the stack's clock is ahead of this process's (a stack run "N hours later"): tokens are minted on its clock. */
  readonly clockAheadMs?: number;
}
