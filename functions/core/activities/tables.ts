import { tables } from '../../../lib/defs/tables.js';
import { requireEnv } from '../env.js';
import type { StoreTables } from './commands.js';

/**
 * Physical table names from the env, read once at cold start (fails loudly when missing). Each
 * function asks only for the tables it is granted (`lib/defs/functions.ts`).
 */
export function storeTablesFromEnv(): StoreTables {
  return { feed: feedTableFromEnv(), graph: requireEnv(tables.graph.envVar) };
}

export const feedTableFromEnv = () => requireEnv(tables.feed.envVar);
