/** Profile counters in the graph table. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tables } from '../../lib/defs/tables.js';
import { doc } from './clients.js';
import { requireEnv } from './env.js';
import { profileKey } from './keys.js';

const graphTable = requireEnv(tables.graph.envVar);

export interface Profile {
  followers: number;
  following: number;
}

export async function getProfile(userId: string): Promise<Profile> {
  const { Item } = await doc.send(new GetCommand({ TableName: graphTable, Key: profileKey(userId) }));
  return { followers: Number(Item?.followers ?? 0), following: Number(Item?.following ?? 0) };
}
