/**
 * Resource names from the environment. Each function's env vars are set by the CDK stack (and by
 * the local runtime) from its definition in lib/defs/functions.ts, together with its IAM grants.
 * Read on first use and kept: a missing one fails that function's first call loudly, naming it.
 */
import { ConfigError } from '../../lib/defs/config.js';
import { type QueueId, queues } from '../../lib/defs/queues.js';
import { type TableId, tableList, tables } from '../../lib/defs/tables.js';

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new ConfigError(name, 'is not set');
  return value;
}

const resolved = new Map<string, string>();
const once = (envVar: string) => {
  let value = resolved.get(envVar);
  if (value === undefined) resolved.set(envVar, (value = requireEnv(envVar)));
  return value;
};

/** Physical name of a table. */
export const tableName = (id: TableId): string => once(tables[id].envVar);

/** The key attribute names of the table with this physical name, among those this function's env names. */
export function keyNamesOf(physical: string): readonly string[] {
  const def = tableList.find((t) => process.env[t.envVar] === physical);
  if (!def) throw new ConfigError('TableName', `${physical} is no table this function knows`);
  return [def.partitionKey.name, ...(def.sortKey ? [def.sortKey.name] : [])];
}

/** URL of a queue. */
export const queueUrl = (id: QueueId): string => once(queues[id].envVar);
