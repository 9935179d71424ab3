/**
 * A realtime connection: one item per open WebSocket of a user, all in ONE partition of the graph
 * table (`rt#on`) — the "who is connected" set. A fan-out page reads that partition once (one
 * Query, paid by the size of the connected set) and intersects it with its followers, so a
 * follower with no connection costs nothing: no read, no write, no send. One user's connections
 * are a `begins_with` Query on the same partition. The item expires (TTL) shortly after API
 * Gateway's 2 h connection limit, so a connection whose $disconnect never ran goes by itself.
 *
 * sk = `<userId>#<connectionId>`: user ids may contain `#`, connection ids (API Gateway's, and the
 * local server's base64url) never do — the last `#` splits them.
 * Split the partition (a suffix per shard) once connects exceed ~1,000/s or the set's reads
 * ~3,000 RCU/s: both are far above API Gateway's 500 new connections/s per account and region.
 */
import { CONNECTION_TTL_SECONDS } from '../../lib/defs/realtime.js';

export const PRESENCE_PARTITION = 'rt#on';

export interface Connection {
  readonly userId: string;
  readonly connectionId: string;
}

export const connectionKey = (c: Connection) => ({ pk: PRESENCE_PARTITION, sk: `${c.userId}#${c.connectionId}` });

/** The sk prefix of one user's connections (a `begins_with` may also match `<userId>#…#id`: parse and compare). */
export const userConnectionsPrefix = (userId: string) => `${userId}#`;

export function connectionItem(c: Connection, nowSeconds: number): Record<string, unknown> {
  return { ...connectionKey(c), expiresAt: nowSeconds + CONNECTION_TTL_SECONDS };
}

/** A stored connection, unless it has expired (TTL deletes lazily: a read filters the leftovers). */
export function parseConnection(item: Record<string, unknown>, nowSeconds: number): Connection | undefined {
  const sk = String(item.sk);
  const hash = sk.lastIndexOf('#');
  if (hash <= 0) return undefined;
  if (Number(String(item.expiresAt)) <= nowSeconds) return undefined;
  return { userId: sk.slice(0, hash), connectionId: sk.slice(hash + 1) };
}
