/**
 * Pushing to connected users (messages.ts), from the job lanes that change what they see: the
 * fan-out worker sends to the followers it just wrote for, one page at a time; backfill, unpull,
 * retract, cleanups and erase likewise; the notify worker and the marks send counts.
 *
 * Cost: a page reads the connected set once (one Query of the presence partition,
 * model/connection.ts: ~0.5 RCU per 4 KB of connections, whoever asks) and then sends only to the
 * followers in it — a follower with no connection costs no read, no write and no send. A count
 * push reads one user's connections (one Query), or for a notify batch's recipients the connected
 * set once, and then the counts of the connected only.
 *
 * Best-effort: a send that fails is logged and counted (PushFailures, alarmed in the stack), never
 * fails the job — rewriting the copies would change nothing, and the client catches up by itself
 * (GET /realtime/missed). A dead connection (410 Gone) has its item deleted.
 */
import { PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { PUSH_FAILURE_METRIC } from '../../../lib/defs/realtime.js';
import type { Connection } from '../../model/connection.js';
import type { CopySource } from '../../model/feed-copy.js';
import { logger } from '../../platform/logger.js';
import { metrics } from '../../platform/metrics.js';
import { forEachLimit } from '../../platform/pool.js';
import { managementClient, realtimeConfigured } from '../../platform/realtime-client.js';
import { allConnections, connectionsOf, deleteConnection, followingAmong } from '../../stores/connection-store.js';
import { feedItemMessage, feedRemoveMessage, feedUpdateMessage, notificationMessage, type RealtimeMessage } from './messages.js';

/** Sends in flight per call (PostToConnection is one HTTPS request each). */
const SEND_CONCURRENCY = 32;

export interface PushResult {
  readonly sent: number;
  readonly gone: number;
  readonly failed: number;
}

const NONE: PushResult = { sent: 0, gone: 0, failed: 0 };

const isGone = (error: unknown) =>
  (error as { name?: string }).name === 'GoneException' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410;

/** Sends each user's messages to each of their connections (`connections`: the connected set, already read). */
export async function deliver(messages: ReadonlyMap<string, readonly RealtimeMessage[]>, connections: readonly Connection[]): Promise<PushResult> {
  const sends = connections.flatMap((c) => (messages.get(c.userId) ?? []).map((m) => ({ c, data: JSON.stringify(m) })));
  if (sends.length === 0) return NONE;
  const dead = new Map<string, Connection>();
  let sent = 0;
  let failed = 0;
  await forEachLimit(sends, SEND_CONCURRENCY, async ({ c, data }) => {
    if (dead.has(c.connectionId)) return;
    try {
      await managementClient().send(new PostToConnectionCommand({ ConnectionId: c.connectionId, Data: new TextEncoder().encode(data) }));
      sent++;
    } catch (error) {
      if (isGone(error)) dead.set(c.connectionId, c);
      else {
        failed++;
        logger.warn('realtime push failed', { error: error as Error, userId: c.userId, connectionId: c.connectionId });
      }
    }
  });
  await forEachLimit([...dead.values()], 8, (c) => deleteConnection(c));
  if (failed > 0) {
    // One metric without dimensions, whichever function sends (the alarm watches it), flushed now.
    const single = metrics.singleMetric();
    single.clearDefaultDimensions();
    single.addMetric(PUSH_FAILURE_METRIC, MetricUnit.Count, failed);
  }
  return { sent, gone: dead.size, failed };
}

function byUser(entries: readonly (readonly [string, RealtimeMessage])[]): Map<string, RealtimeMessage[]> {
  const out = new Map<string, RealtimeMessage[]>();
  for (const [user, m] of entries) out.get(user)?.push(m) ?? out.set(user, [m]);
  return out;
}

/** Pushes to the connected among `messages`' users: one read of the connected set, none when there is nothing to say. */
async function pushToConnected(messages: Map<string, RealtimeMessage[]>): Promise<PushResult> {
  if (messages.size === 0 || !realtimeConfigured()) return NONE;
  const connections = await allConnections();
  return deliver(messages, connections);
}

/** `feed.item` for copies just written (`seq`: their write ticks, writeCopies' return). */
export function pushFeedItems(copies: readonly { owner: string; source: CopySource }[], seq: bigint): Promise<PushResult> {
  return pushFeedItemsOf([{ copies, seq }]);
}

/** `feed.item` for several writes' copies (a fan-out batch's pages) after one read of the connected set. */
export function pushFeedItemsOf(writes: readonly { copies: readonly { owner: string; source: CopySource }[]; seq: bigint }[]): Promise<PushResult> {
  const entries = writes.flatMap(({ copies, seq }) => {
    const messages = new Map<CopySource, RealtimeMessage>();
    const message = (s: CopySource) => messages.get(s) ?? messages.set(s, feedItemMessage(s, seq)).get(s)!;
    return copies.map((c) => [c.owner, message(c.source)] as const);
  });
  return pushToConnected(byUser(entries));
}

/** `feed.update` for copies just brought to an edited version (`seq`: the update's ticks). */
export function pushFeedUpdates(owners: readonly string[], source: CopySource, seq: bigint): Promise<PushResult> {
  const message = feedUpdateMessage(source, seq);
  return pushToConnected(byUser(owners.map((owner) => [owner, message])));
}

/** `feed.remove` for copies just deleted (an absent one too: the client ignores an id it does not hold). */
export function pushFeedRemovals(removals: readonly { owner: string; author: string; rk: bigint }[]): Promise<PushResult> {
  return pushToConnected(byUser(removals.map((r) => [r.owner, feedRemoveMessage(r.author, r.rk)])));
}

/**
 * A pulled (celebrity) author's post has no copies to follow: its `feed.item` (and `feed.remove`)
 * go to the author's connected followers, found from the connected side — the connected set, then
 * the follow edges of the connected users only (one BatchGetItem per 100) — paid per connected
 * user, never per follower; those who muted the author are left out, as the fan-out leaves them.
 */
export async function pushToConnectedFollowers(author: string, message: RealtimeMessage): Promise<PushResult> {
  if (!realtimeConfigured()) return NONE;
  const connections = await allConnections();
  const candidates = [...new Set(connections.map((c) => c.userId))].filter((u) => u !== author);
  const followers = candidates.length === 0 ? new Set<string>() : await followingAmong(candidates, author);
  return deliver(new Map([author, ...followers].map((u) => [u, [message]])), connections);
}

export const pushPulledPost = (author: string, source: CopySource, seq: bigint) => pushToConnectedFollowers(author, feedItemMessage(source, seq));

export const pushPulledUpdate = (author: string, source: CopySource, seq: bigint) => pushToConnectedFollowers(author, feedUpdateMessage(source, seq));

export const pushPulledRemoval = (author: string, rk: bigint) => pushToConnectedFollowers(author, feedRemoveMessage(author, rk));

/** `notification` with `user`'s counts (read only when the user has a connection). */
export function pushNotificationCounts(user: string, counts: () => Promise<{ unseen: number; unread: number }>): Promise<PushResult> {
  return pushNotificationCountsTo([user], counts);
}

/**
 * `notification` with each user's counts, to the connected among `users` (a notify batch's
 * recipients): one read of who is connected — one user's connections (one Query) or, for several,
 * the connected set (one Query, whoever asks) — then the counts of the connected ones only.
 */
export async function pushNotificationCountsTo(
  users: readonly string[],
  counts: (user: string) => Promise<{ unseen: number; unread: number }>,
): Promise<PushResult> {
  if (users.length === 0 || !realtimeConfigured()) return NONE;
  const wanted = new Set(users);
  const connections = users.length === 1 ? await connectionsOf(users[0]!) : (await allConnections()).filter((c) => wanted.has(c.userId));
  if (connections.length === 0) return NONE;
  const connected = [...new Set(connections.map((c) => c.userId))];
  // Best-effort per user: counts that cannot be read now are not pushed (the client catches up), and fail no one else's.
  const messages = await Promise.all(
    connected.map(async (u) => {
      try {
        return [[u, [notificationMessage(await counts(u))]] as const];
      } catch (error) {
        logger.warn('realtime counts not pushed: reading them failed', { error: error as Error, userId: u });
        return [];
      }
    }),
  );
  return deliver(new Map(messages.flat()), connections);
}
