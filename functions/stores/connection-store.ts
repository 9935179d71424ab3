/**
 * Realtime connections in the graph table (model/connection.ts): record, forget, and read the
 * connected set (all of it, or one user's). Eventually consistent reads: a connection made a
 * moment ago may be missed by a push, which the client's catch-up on open covers.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type Connection, connectionItem, connectionKey, parseConnection, PRESENCE_PARTITION, userConnectionsPrefix } from '../model/connection.js';
import { followEdgeKey, parseEdge, wantsPosts } from '../model/follow-edge.js';
import { doc } from '../platform/clients.js';
import { batchGetAll } from '../platform/dynamo/batch-get.js';
import { queryAll } from '../platform/dynamo/query.js';
import { tableName } from '../platform/env.js';

const graph = () => tableName('graph');
const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function putConnection(c: Connection): Promise<void> {
  await doc.send(new PutCommand({ TableName: graph(), Item: connectionItem(c, nowSeconds()) }));
}

/** Forget a connection (absent already: harmless). */
export async function deleteConnection(c: Connection): Promise<void> {
  await doc.send(new DeleteCommand({ TableName: graph(), Key: connectionKey(c) }));
}

const present = (items: Record<string, unknown>[]) => {
  const now = nowSeconds();
  return items.map((i) => parseConnection(i, now)).filter((c): c is Connection => c !== undefined);
};

/** Every open connection: one Query of the presence partition (paid by its size, not by who asks). */
export async function allConnections(): Promise<Connection[]> {
  return present(await queryAll({ TableName: graph(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': PRESENCE_PARTITION } }));
}

/** One user's open connections: one Query (0.5 RCU when there is none). */
export async function connectionsOf(userId: string): Promise<Connection[]> {
  const items = await queryAll({
    TableName: graph(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': PRESENCE_PARTITION, ':prefix': userConnectionsPrefix(userId) },
  });
  return present(items).filter((c) => c.userId === userId);
}

/** Of `candidates`, those who follow `followee` and have not muted them (one BatchGetItem per 100 edges). */
export async function followingAmong(candidates: readonly string[], followee: string): Promise<Set<string>> {
  const byPk = new Map(candidates.map((c) => [followEdgeKey(c, followee).pk, c]));
  const items = await batchGetAll(
    graph(),
    candidates.map((c) => followEdgeKey(c, followee)),
  );
  const out = new Set<string>();
  for (const item of items) {
    const edge = parseEdge(item);
    const follower = byPk.get(String(item.pk));
    if (follower !== undefined && wantsPosts(edge)) out.add(follower);
  }
  return out;
}
