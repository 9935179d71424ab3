/**
 * Realtime: an author with 1,000 followers, each connected over a WebSocket (`ws`, loopback, to the
 * local realtime API): 201 → `feed.item` at each subscriber and at the last, deliveries per
 * subscriber per post; the push cost per connected follower (all connected vs all offline, trims
 * left out) and per offline follower (the push to 1,000 offline vs 1: must be zero); and the push
 * alone to the 1,000 connected. The clients share the bench process's event loop.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { WebSocket } from 'ws';
import { toActivity } from '../../functions/model/activity.js';
import { PRESENCE_PARTITION } from '../../functions/model/connection.js';
import { nowTicks } from '../../functions/platform/clock.js';
import type { TimelineItem } from '../../functions/model/timeline-item.js';
import { sumTags } from '../capacity.js';
import { type BenchContext, isTrimTag } from '../context.js';
import { authorWithFollowers, benchOriginal, now, postActivity, quiesce, sleep, uid } from '../fixtures.js';
import { waitForCopies } from '../copies.js';
import { figureOf, progress } from '../report.js';
import { median, percentile, pool, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const fig = figureOf('realtime');
const SUBSCRIBERS = 1000;
const POSTS = 8;
const CONNECT_CONCURRENCY = 16;

/**
 * What the handlers spent on `fn`, once quiet again: the units outside the trims (a copy write
 * starts one at random: noise in a difference of two runs), the calls and the sends.
 */
async function metered(ctx: BenchContext, fn: () => Promise<unknown>) {
  const sentBefore = ctx.stack.realtime.stats.sent;
  const { spent } = await ctx.handlerCapacity.measure(async () => {
    await fn();
    await quiesce(ctx, 300);
  });
  const trims = sumTags(spent, isTrimTag);
  return {
    read: spent.read - trims.read,
    write: spent.write - trims.write,
    sends: ctx.stack.realtime.stats.sent - sentBefore,
    calls: spent.calls,
    tags: spent.tags,
  };
}
type Spent = Awaited<ReturnType<typeof metered>>;

async function presenceCount(ctx: BenchContext): Promise<number> {
  const out = await ctx.doc.send(
    new QueryCommand({
      TableName: ctx.stack.tableNames.graph,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': PRESENCE_PARTITION },
      Select: 'COUNT',
    }),
  );
  return out.Count ?? 0;
}

/** Opens one WebSocket per user; every `feed.item` is recorded as (activity id → arrival times). */
async function connectAll(ctx: BenchContext, url: string, users: readonly string[], arrivals: Map<string, number[]>): Promise<WebSocket[]> {
  const sockets: WebSocket[] = new Array(users.length);
  await pool(users.length, CONNECT_CONCURRENCY, async (i) => {
    const ws = new WebSocket(`${url}?token=${encodeURIComponent(await ctx.token(users[i]!))}`);
    ws.on('message', (data) => {
      const at = now();
      const m = JSON.parse(String(data)) as { type: string; item?: { id: string } };
      if (m.type !== 'feed.item' || !m.item) return;
      const list = arrivals.get(m.item.id);
      if (list) list.push(at);
      else arrivals.set(m.item.id, [at]);
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once('error', reject);
    });
    sockets[i] = ws;
  });
  return sockets;
}

const closeAll = (sockets: readonly WebSocket[]) =>
  Promise.all(sockets.filter((ws) => ws.readyState !== ws.CLOSED).map((ws) => new Promise((resolve) => ws.once('close', resolve).close(1000))));

async function waitUntil(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = now() + timeoutMs;
  while (!(await probe())) {
    if (now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export const realtime: Scenario = {
  id: 'realtime',
  title: `201 → feed.item at ${SUBSCRIBERS} connected followers, and the push cost per connected vs offline follower`,
  async run(ctx) {
    const { author, followers } = await authorWithFollowers(ctx, SUBSCRIBERS, 'rt-');
    const discovery = await ctx.call('GET', '/realtime', followers[0]!);
    if (discovery.status !== 200) throw new Error(`GET /realtime: ${discovery.status}`);
    const url = String(discovery.body.url);

    await quiesce(ctx, 300);
    const presentBefore = await presenceCount(ctx);
    const arrivals = new Map<string, number[]>();
    progress(`  realtime: connecting ${SUBSCRIBERS} WebSockets`);
    const sockets = await connectAll(ctx, url, followers, arrivals);
    await waitUntil('the connections', async () => (await presenceCount(ctx)) === presentBefore + SUBSCRIBERS);

    // 1. Every follower connected: latency to each subscriber, and what the fan-out spent. One
    // post first, not counted: the first sends open the management client's connections.
    const arrived = (id: string) => () => (arrivals.get(id)?.length ?? 0) >= SUBSCRIBERS;
    const warmUp = await postActivity(ctx, author, { verb: 'post', content: 'warm-up' });
    await waitUntil('the warm-up post at every subscriber', arrived(warmUp.id), 60_000);
    const latencies: number[] = [];
    const lastAt: number[] = [];
    const deliveries: number[] = [];
    /** POSTS posts, each metered until its copies are in every feed and the handlers are quiet. */
    const posts = async (label: string, connected: boolean) => {
      const spent: Spent[] = [];
      for (let p = 0; p < POSTS; p++) {
        progress(`  realtime: ${label} post ${p + 1}/${POSTS}`);
        await quiesce(ctx, 300);
        spent.push(
          await metered(ctx, async () => {
            const { id, rangeKey } = await postActivity(ctx, author, { verb: 'post', content: `${label} ${p}` });
            const t201 = now();
            if (connected) await waitUntil(`feed.item at ${SUBSCRIBERS} subscribers`, arrived(id), 60_000);
            await waitForCopies(ctx, [{ rk: rangeKey, owners: followers }]);
            if (!connected) return;
            await sleep(200); // a duplicate would arrive with the last page's sends
            const times = arrivals.get(id)!;
            latencies.push(...times.map((t) => t - t201));
            lastAt.push(Math.max(...times) - t201);
            deliveries.push(times.length / SUBSCRIBERS);
          }),
        );
      }
      return spent;
    };
    const connected = await posts('connected', true);

    // 2. The push for offline followers, beside the connected set: 1,000 of them against 1.
    const { pushFeedItems } = await import('../../functions/services/realtime/push.js');
    const pushOf = (source: TimelineItem, owners: readonly string[]) =>
      pushFeedItems(
        owners.map((owner) => ({ owner, source })),
        nowTicks(),
      );
    const source = benchOriginal(uid('rt-offline-author'), nowTicks(), 0);
    const offlineOwners = Array.from({ length: SUBSCRIBERS }, (_, i) => uid('rt-offline', i));
    const pushOne = await metered(ctx, () => pushOf(source, offlineOwners.slice(0, 1)));
    const pushMany = await metered(ctx, () => pushOf(source, offlineOwners));
    // And the push alone to the 1,000 connected (no copies written): where a delivery's time goes locally.
    const direct = benchOriginal(uid('rt-direct-author'), nowTicks(), 0);
    const pushStarted = now();
    await pushOf(direct, followers);
    await waitUntil('the direct push', arrived(toActivity(direct).id), 60_000);
    const pushAloneMs = now() - pushStarted;

    // 3. Every follower offline: the same author's posts, the same fan-out, no one to send to.
    progress('  realtime: closing the WebSockets');
    await closeAll(sockets);
    await waitUntil('the disconnects', async () => (await presenceCount(ctx)) === presentBefore);
    const offline = await posts('offline', false);

    const med = (runs: Spent[], pick: (s: Spent) => number) => median(runs.map(pick));
    const perConnected = (pick: (s: Spent) => number) => round((med(connected, pick) - med(offline, pick)) / SUBSCRIBERS, 4);
    const perOffline = (pick: (s: Spent) => number) => round((pick(pushMany) - pick(pushOne)) / (SUBSCRIBERS - 1), 4);
    const zero = (value: number) => ({ target: '= 0', met: value === 0 });
    const presence = (s: Spent) => s.tags['connected set read'] ?? { calls: 0, read: 0 };
    const perRead = (s: Spent) => round(presence(s).read / Math.max(1, presence(s).calls), 2);
    const calls = (s: Spent) => JSON.stringify(s.calls);
    const [typicalConnected, typicalOffline] = [connected[Math.floor(POSTS / 2)]!, offline[Math.floor(POSTS / 2)]!];
    const setup = `${SUBSCRIBERS} followers each with one WebSocket (ws, loopback), ${POSTS} posts`;
    const [offRead, offWrite, offSends] = [perOffline((s) => s.read), perOffline((s) => s.write), perOffline((s) => s.sends)];
    return [
      fig(`201 → feed.item at a subscriber, p50 (${setup})`, round(percentile(latencies, 50)), 'ms'),
      fig(`201 → feed.item at a subscriber, p99 (${setup})`, round(percentile(latencies, 99)), 'ms'),
      fig(`201 → feed.item at the last of ${SUBSCRIBERS} subscribers (p50 of ${POSTS} posts)`, round(median(lastAt)), 'ms'),
      fig(
        `the push alone: ${SUBSCRIBERS} feed.item sent (PostToConnection through the SDK to the local @connections endpoint) and received`,
        round(pushAloneMs),
        'ms',
        {
          note: `${Math.round(SUBSCRIBERS / (pushAloneMs / 1000))} sends/s: the sender's SDK calls, the local API and the clients share one Node process on 2 cores; in AWS each sender is a Lambda and API Gateway delivers`,
        },
      ),
      fig('feed.item deliveries per subscriber per post', round(Math.max(...deliveries), 3), '', { target: '= 1', met: deliveries.every((d) => d === 1) }),
      fig(
        'push cost per post per connected follower: reads',
        perConnected((s) => s.read),
        'RCU',
        {
          note: `all connected vs all offline, medians of ${POSTS} posts each, trims left out: the connected set read once per fan-out page`,
        },
      ),
      fig(
        `connected-set read per fan-out page with ${SUBSCRIBERS} users connected (paid per connected user, follower or not)`,
        perRead(typicalConnected),
        'RCU',
        {
          note: `${presence(typicalConnected).calls} reads per post of a ${SUBSCRIBERS}-follower author; with none connected DynamoDB Local reports ${perRead(typicalOffline)}, the pricing rules 0.5`,
        },
      ),
      fig(
        'push cost per post per connected follower: writes',
        perConnected((s) => s.write),
        'WCU',
      ),
      fig(
        'push cost per post per connected follower: sends',
        perConnected((s) => s.sends),
        'PostToConnection',
        {
          note: `calls per post connected ${calls(typicalConnected)}, offline ${calls(typicalOffline)}`,
        },
      ),
      fig('push cost per offline follower: reads', offRead, 'RCU', {
        ...zero(offRead),
        note: `the fan-out's push to ${SUBSCRIBERS} offline followers vs 1, ${SUBSCRIBERS} others connected: ${round(pushMany.read)} vs ${round(pushOne.read)} RCU (one Query of the connected set either way), calls ${calls(pushMany)} vs ${calls(pushOne)}`,
      }),
      fig('push cost per offline follower: writes', offWrite, 'WCU', zero(offWrite)),
      fig('push cost per offline follower: sends', offSends, 'PostToConnection', zero(offSends)),
    ];
  },
};
