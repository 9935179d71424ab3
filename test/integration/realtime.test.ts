/**
 * Realtime on the shared local stack: WebSocket clients connect to the local realtime
 * API (the same $connect/$disconnect/$default handlers and @connections sends as in AWS) and
 * receive what the job lanes push.
 */
import { PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { createTickfeedClient, subscribe, type WebSocketLike } from '@tickfeed/client';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { meterCapacity } from '../../bench/capacity.js';
import * as handlerClients from '../../functions/platform/clients.js';
import { managementClient } from '../../functions/platform/realtime-client.js';
import { pushFeedItems } from '../../functions/services/realtime/push.js';
import { api, token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { stack } from '../support/local.js';
import { eventually } from '../support/wait.js';
import { connectionIdsOf, dropConnections, management, openSocket } from '../support/realtime.js';
import { originalItem, writeFeedItems } from '../support/seed-originals.js';

const meter = meterCapacity(handlerClients.dynamo);

/** PostToConnection calls made by this process's senders. */
let sends = 0;
managementClient().middlewareStack.add(
  (next) => async (args) => {
    sends++;
    return next(args);
  },
  { step: 'initialize', name: 'countSends' },
);

async function follows(follower: string, followee: string) {
  expect((await api('PUT', `/following/${followee}`, { as: follower })).status).toBe(204);
}

describe('realtime', () => {
  it("a connected follower gets feed.item for a followee's post exactly once, feed.remove after its delete, notification after a like", async () => {
    const [author, follower] = [uid('rt-author'), uid('rt-fol')];
    await follows(follower, author);
    const socket = await openSocket({ user: follower });
    const posted = await api('POST', '/activities', { as: author, json: { verb: 'post', content: 'live' } });
    expect(posted.status).toBe(201);
    const item = await socket.waitFor((m) => m.type === 'feed.item' && m.item.id === posted.body.id);
    // The activity as GET /feed returns it.
    const page = await api('GET', '/feed', { as: follower });
    expect(page.body.items).toEqual([item.item]);
    expect(item.seq).toMatch(/^\d+$/);

    expect((await api('DELETE', `/activities/${posted.body.id}`, { as: author })).status).toBe(204);
    await socket.waitFor((m) => m.type === 'feed.remove' && m.id === posted.body.id);
    expect(socket.messages.filter((m) => m.type === 'feed.item' && m.item.id === posted.body.id)).toHaveLength(1);

    // The follower's own post, liked by the author: the follower's counts arrive.
    const own = await api('POST', '/activities', { as: follower, json: { verb: 'post' } });
    expect((await api('PUT', `/activities/${own.body.id}/reactions/like`, { as: author })).status).toBeLessThan(300);
    const note = await socket.waitFor((m) => m.type === 'notification' && m.unseen >= 1);
    expect(note).toEqual({ type: 'notification', unseen: 1, unread: 1 });
    await socket.close();
    await eventually(async () => (await connectionIdsOf(follower)).length === 0, { timeoutMs: 10_000, intervalMs: 50 }); // $disconnect forgot it
  }, 60_000);

  it("refuses a missing token (401) and an invalid or expired one (403, the authorizer's Deny) at the upgrade: no connection, no message", async () => {
    const user = uid('rt-bad');
    const expired = await token(user, { issuedAt: Math.floor(Date.now() / 1000) - 7200, expiresIn: Math.floor(Date.now() / 1000) - 60 });
    await expect(openSocket({ token: '' })).rejects.toMatchObject({ status: 401 });
    for (const t of ['not-a-jwt', expired, (await token(user)).slice(0, -4) + 'AAAA']) {
      await expect(openSocket({ token: t })).rejects.toMatchObject({ status: 403 });
    }
    expect(await connectionIdsOf(user)).toEqual([]);
  });

  it("a follower with no connection costs no read, no write and no send (metered on the fan-out's push)", async () => {
    const author = uid('rt-cost');
    const online = uid('rt-on');
    const socket = await openSocket({ user: online });
    const source = originalItem({ actor: author, verb: 'post', timeMs: Date.now() });
    const copies = (owners: string[]) => owners.map((owner) => ({ owner, source }));
    const measure = async (owners: string[]) => {
      const [before, sentBefore] = [meter.snapshot(), sends];
      const result = await pushFeedItems(copies(owners), 1n);
      const spent = meter.since(before);
      return { read: spent.read, write: spent.write, calls: spent.calls, sends: sends - sentBefore, result };
    };
    const offline = Array.from({ length: 500 }, () => uid('rt-off'));
    const alone = await measure([online]);
    const withOffline = await measure([online, ...offline]);
    // 500 offline followers change nothing: the same one read of the connected set, one send.
    expect(withOffline.calls).toEqual(alone.calls);
    expect(withOffline.calls).toEqual({ QueryCommand: 1 });
    expect(withOffline.read).toBe(alone.read);
    expect(withOffline.write).toBe(0);
    expect(withOffline.sends).toBe(1);
    expect(withOffline.result).toEqual({ sent: 1, gone: 0, failed: 0 });
    // Only offline followers: the same read, nothing else.
    const none = await measure(offline);
    expect(none.calls).toEqual({ QueryCommand: 1 });
    expect(none.sends).toBe(0);
    await socket.close();
  });

  it('a dead connection (410 Gone) is forgotten on the next send', async () => {
    const user = uid('rt-gone');
    const socket = await openSocket({ user });
    const [id] = await connectionIdsOf(user);
    // Gone without a $disconnect reaching us: the item stays until a send finds the connection gone.
    const { putConnection } = await import('../../functions/stores/connection-store.js');
    await socket.close();
    await eventually(async () => (await connectionIdsOf(user)).length === 0, { timeoutMs: 10_000, intervalMs: 50 });
    await putConnection({ userId: user, connectionId: id! });
    await expect(management.send(new PostToConnectionCommand({ ConnectionId: id!, Data: new TextEncoder().encode('{}') }))).rejects.toMatchObject({
      name: 'GoneException',
    });
    const result = await pushFeedItems([{ owner: user, source: originalItem({ actor: uid('a'), verb: 'post', timeMs: Date.now() }) }], 1n);
    expect(result).toEqual({ sent: 0, gone: 1, failed: 0 });
    expect(await connectionIdsOf(user)).toEqual([]);
  });

  it('a client that reconnects gets every item it missed exactly once, a late copy below its newest key included', async () => {
    const [a, b, reader] = [uid('rt-a'), uid('rt-b'), uid('rt-reader')];
    await follows(reader, a);
    await follows(reader, b);
    const t0 = Date.now() - 10_000;
    const [p0, p1] = [originalItem({ actor: a, verb: 'post', timeMs: t0 }), originalItem({ actor: a, verb: 'post', timeMs: t0 + 4000 })];
    await writeFeedItems([p0, p1]);
    const feed = async () => (await api('GET', '/feed', { as: reader })).body.items as { id: string; rangeKey: string }[];
    const held = await eventually(async () => ((await feed()).length === 2 ? feed() : undefined), { timeoutMs: 30_000, intervalMs: 100 });

    const client = createTickfeedClient({ baseUrl: stack.apiUrl, token: () => token(reader) });
    const delivered: string[] = [];
    let opens = 0;
    let gate: () => void = () => undefined;
    const gated = new Promise<void>((r) => (gate = r));
    const sub = subscribe(client, () => token(reader), {
      WebSocket: WebSocket as unknown as WebSocketLike,
      newest: held[0]!.rangeKey,
      oldest: held[1]!.rangeKey,
      seen: held.map((i) => i.id),
      onItem: (i) => delivered.push(i.id),
      onStatus: (s) => void (s === 'caughtUp' && opens++),
      backoff: () => gated, // the reconnect waits until the test has changed the feed
    });
    await eventually(async () => opens === 1, { timeoutMs: 10_000, intervalMs: 20 });
    expect(delivered).toEqual([]);

    await dropConnections(reader); // the server closes it (as API Gateway's 2 h limit or a deploy would)
    await eventually(async () => (await connectionIdsOf(reader)).length === 0, { timeoutMs: 10_000, intervalMs: 20 });
    // While away: a new post, and a late copy — b's post from between p0 and p1, written only now.
    const late = originalItem({ actor: b, verb: 'post', timeMs: t0 + 2000 });
    await writeFeedItems([late]);
    const fresh = await api('POST', '/activities', { as: a, json: { verb: 'post' } });
    await eventually(async () => ((await feed()).length === 4 ? true : undefined), { timeoutMs: 30_000, intervalMs: 100 });
    const rks = (await feed()).map((i) => i.rangeKey);
    expect(rks.indexOf(String(late.rk))).toBe(2); // below the newest key the client held

    gate();
    await eventually(async () => opens === 2, { timeoutMs: 20_000, intervalMs: 20 });
    expect(delivered.sort()).toEqual([String(fresh.body.id), `${late.rk}.${Buffer.from(b).toString('base64url')}`].sort());
    sub.close();
  }, 90_000);
});
