/**
 * After a follow or unfollow: if the followee crossed the pull threshold (up at ≥ T, down below
 * 90 % of T), enqueue the job that moves them between push and pull. Checked after every change,
 * so a crash before the enqueue is repaired by the next follow/unfollow of that user.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tables } from '../../../lib/defs/tables.js';
import { doc } from '../clients.js';
import { requireEnv } from '../env.js';
import { pullThresholds } from '../fanout/thresholds.js';
import { enqueueJob } from '../fanout/jobs.js';
import { profileKey } from '../keys.js';

const graphTable = requireEnv(tables.graph.envVar);

export async function checkThreshold(userId: string): Promise<'pull' | 'unpull' | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: graphTable, Key: profileKey(userId), ConsistentRead: true }));
  const followers = Number(Item?.followers?.toString() ?? 0);
  const pulled = Item?.pulled === true;
  const { pullAt, unpullBelow } = pullThresholds();
  const kind = !pulled && followers >= pullAt ? 'pull' : pulled && followers < unpullBelow ? 'unpull' : undefined;
  if (kind) await enqueueJob({ kind, author: userId });
  return kind;
}
