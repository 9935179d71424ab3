/**
 * Home-feed retention on the real local stack, through the retention service with small policies
 * (the shared stack's own FEED_MAX_ITEMS is large; the write-path trigger at N = 10 is tested on
 * a stack of its own in trim-keeps-own-posts.test.ts): by count (the N newest always stay, a trim reads in
 * proportion to what it deletes, a concurrent cleanup never takes a feed below what it should
 * hold), by span, by age. A trim touches home-feed copies only: never the head, never a timeline.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { feedHeadKey, parseFeedHead } from '../../functions/model/feed-head.js';
import { rangeKeyOf, ticksOfRangeKey } from '../../functions/model/range-key.js';
import { timelineKey } from '../../functions/model/timeline-item.js';
import { doc as handlerDoc } from '../../functions/platform/clients.js';
import { nowTicks } from '../../functions/platform/clock.js';
import { removeCopies } from '../../functions/services/home-feed-copies.js';
import { expiresAtFor } from '../../functions/services/retention/bounds.js';
import { homeFeedPolicyOf } from '../../functions/services/retention/retention-policy.js';
import { trimHomeFeed } from '../../functions/services/retention/trim.js';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { generateLocalKeys } from '../../local/jwt.js';
import { startLocalStack } from '../../local/stack.js';
import { feedRks, timelineRks } from '../support/feeds.js';
import { api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';
import { copyItem, originalItem, writeFeedItems } from '../support/seed-originals.js';

const SECOND_MS = 1000;
const storedKeys = async (owner: string) => (await feedRks(owner)).map(BigInt);
const newestFirst = (rks: bigint[]) => [...rks].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Seed copies of `author`'s posts into `owner`'s home feed, one per second ending `endMs`. */
async function seedCopies(owner: string, author: string, count: number, endMs: number, extra: Record<string, unknown> = {}): Promise<bigint[]> {
  const items = Array.from({ length: count }, (_, i) => ({
    ...copyItem(originalItem({ actor: author, verb: 'seed', timeMs: endMs - i * SECOND_MS }), owner),
    ...extra,
  }));
  await writeFeedItems(items);
  return items.map((i) => i.rk);
}

/** Read capacity the handler client spends inside `fn`. */
async function readUnits<T>(fn: () => Promise<T>): Promise<{ result: T; rcu: number; wcu: number }> {
  let rcu = 0;
  let wcu = 0;
  const name = `meter-${uid()}`;
  handlerDoc.middlewareStack.add(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    (next: any, context: { commandName?: string }) => async (args: any) => {
      args.input.ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const units = [out.output.ConsumedCapacity].flat().reduce((n: number, c: { CapacityUnits?: number } | undefined) => n + (c?.CapacityUnits ?? 0), 0);
      if (/Query|Get/.test(context.commandName ?? '')) rcu += units;
      else wcu += units;
      return out;
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await fn(), rcu, wcu };
  } finally {
    handlerDoc.middlewareStack.remove(name);
  }
}

describe('retention by count (home feeds)', () => {
  const N = 50;
  const policy = homeFeedPolicyOf(N); // margin 13: first trim at 2N + 13 copies, then once N + 13 were written since

  it('keeps exactly the N newest, trims only past 2N + margin, and reads in proportion to what it deletes', async () => {
    const owner = uid('count');
    const now = Date.now();
    const first = await seedCopies(owner, uid('a'), 2 * N + policy.margin - 1, now - 3_600_000);
    expect((await trimHomeFeed(owner, policy)).deleted).toBe(0); // below the threshold: nothing goes

    const more = await seedCopies(owner, uid('b'), 20, now - 1_800_000);
    const all = newestFirst([...first, ...more]);
    const trim = await trimHomeFeed(owner, policy);
    expect(trim.deleted).toBe(all.length - N);
    expect(await storedKeys(owner)).toEqual(all.slice(0, N));
    expect(trim.kept).toBe(all[N - 1]);
    const head = parseFeedHead((await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: feedHeadKey(owner) }))).Item);
    expect(head.top).toBe(all[0]); // the newest copy this trim saw

    // Steady state: the next trim reads only what arrived since (N + margin of it) plus what it deletes.
    const newer = await seedCopies(owner, uid('c'), N + policy.margin + 10, now);
    const before = newestFirst([...all.slice(0, N), ...newer]);
    const { result, rcu, wcu } = await readUnits(() => trimHomeFeed(owner, policy));
    expect(result.deleted).toBe(newer.length); // the N kept last time and the newest's overshoot
    expect(await storedKeys(owner)).toEqual(before.slice(0, N));
    expect(result.examined).toBe(N + result.deleted); // N + margin to find the cut, the rest of what went
    // Each copy here is ~120 B; reading the deleted ones' keys once costs about deleted × 120 / 4 KB / 2.
    const perItemRcu = 120 / 4096 / 2;
    expect(rcu).toBeLessThanOrEqual(2 * result.deleted * perItemRcu + 1.5); // + the head read and page rounding
    expect(wcu).toBeLessThanOrEqual(result.deleted + 1); // one delete each + the head's `top`
    console.log(`trim of ${result.deleted}: ${result.examined} keys read, ${rcu} RCU, ${wcu} WCU`);
  });

  it('a trim racing a cleanup of older copies leaves exactly the N newest (deletes by key range, not by count)', async () => {
    for (let round = 0; round < 3; round++) {
      const owner = uid('race');
      const now = Date.now();
      const kept = await seedCopies(owner, uid('bob'), N, now); // the N newest
      const carol = await seedCopies(owner, uid('carol'), N + policy.margin + 20, now - 3_600_000); // all older
      // The unfollow cleanup of carol and a trim run at once, in varying orders.
      const cleanup = async () => {
        await new Promise((r) => setTimeout(r, round * 3));
        await removeCopies(carol.map((rk) => ({ owner, rk })));
      };
      await Promise.all([trimHomeFeed(owner, policy), cleanup()]);
      expect(await storedKeys(owner)).toEqual(newestFirst(kept));
    }
  });

  it('never touches the head item or a timeline: a home feed holds copies only', async () => {
    const owner = uid('owner');
    const original = originalItem({ actor: owner, verb: 'mine', timeMs: Date.now() - 7_200_000 });
    await writeFeedItems([original]); // the owner's own post, old: in their timeline
    // Its fan-out writes the owner's own copy: wait for it, so it cannot land after the trim.
    await eventually(async () => (await storedKeys(owner)).includes(original.rk));
    await doc.send(new PutCommand({ TableName: stack.tableNames.feed, Item: { ...feedHeadKey(owner), pulled: new Set(['celebrity']) } }));
    await seedCopies(owner, uid('x'), 2 * N + policy.margin + 5, Date.now());
    await trimHomeFeed(owner, policy);
    expect(await storedKeys(owner)).toHaveLength(N);
    expect(await timelineRks(owner)).toEqual([String(original.rk)]);
    const head = parseFeedHead((await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: feedHeadKey(owner) }))).Item);
    expect(head.pulled).toEqual(['celebrity']);
  });
});

describe('retention by span (home feeds)', () => {
  it('deletes copies older than the newest minus the span, as the newest moves', async () => {
    const owner = uid('span');
    const policy = homeFeedPolicyOf(undefined, 60_000);
    const t0 = Date.now() - 600_000;
    const author = uid('a');
    const [newest, recent, old] = [t0, t0 - 30_000, t0 - 90_000].map((timeMs) => copyItem(originalItem({ actor: author, verb: 's', timeMs }), owner));
    await writeFeedItems([newest!, recent!, old!]);
    expect((await trimHomeFeed(owner, policy)).deleted).toBe(1);
    expect(await storedKeys(owner)).toEqual([newest!.rk, recent!.rk]);
    // A newer copy moves the window: the 30 s-old one is now 75 s behind the newest.
    const newer = copyItem(originalItem({ actor: author, verb: 's', timeMs: t0 + 45_000 }), owner);
    await writeFeedItems([newer]);
    expect((await trimHomeFeed(owner, policy)).deleted).toBe(1);
    expect(await storedKeys(owner)).toEqual([newer.rk, newest!.rk]);
  });
});

describe('retention by age (home feeds)', () => {
  it('hides an expired copy from every read at once', async () => {
    const user = uid('age');
    const ttlMs = 30 * 86_400_000; // the stack's FEED_TTL default
    expect(stack.env.FEED_TTL ?? '30d').toBe('30d');
    // A copy of a post made just under 30 days ago expires a few seconds from now.
    const fleeting = copyItem(originalItem({ actor: uid('old'), verb: 'fleeting', timeMs: Date.now() - ttlMs + 4_000 }), user);
    const expiresAt = expiresAtFor(ticksOfRangeKey(fleeting.rk), ttlMs);
    await writeFeedItems([{ ...fleeting, expiresAt }]);
    const keep = await api('POST', '/activities', { as: user, json: { verb: 'lasting' } });

    const ids = async () => (await api('GET', '/feed', { as: user })).body.items.map((i: { id: string }) => i.id);
    expect(await ids()).toEqual([keep.body.id, fleeting.id]);
    await eventually(async () => (await ids()).length === 1, { timeoutMs: 15_000, intervalMs: 250 });
    expect(await ids()).toEqual([keep.body.id]);
  }, 60_000);

  it("a user's own posts are not subject to the home-feed age (TIMELINE_TTL is off by default)", async () => {
    const user = uid('owner');
    const old = originalItem({ actor: user, verb: 'ancient', timeMs: Date.now() - 400 * 86_400_000 });
    await writeFeedItems([old]);
    const timeline = await api('GET', `/users/${user}/activities`, { as: user });
    expect(timeline.body.items.map((i: { id: string }) => i.id)).toEqual([old.id]);
    expect((await api('GET', `/activities/${String(old.id)}`, { as: user })).status).toBe(200);
  });

  it('expired items are later removed by DynamoDB Local TTL', async () => {
    // A stack of its own: DynamoDB Local's TTL sweeper is slow to reach an item in a big, busy
    // table, and this test is about the feed table's TTL setting, not about load.
    const own = await startLocalStack({ port: 0, keys: await generateLocalKeys(), pollers: false });
    try {
      const ownDoc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: localRegion, credentials: localCredentials, endpoint: own.dynamoEndpoint }));
      const key = timelineKey('ttl-user', rangeKeyOf(nowTicks(), 1n));
      await ownDoc.send(new PutCommand({ TableName: own.tableNames.feed, Item: { ...key, verb: 'fleeting', expiresAt: Math.ceil(Date.now() / 1000) + 2 } }));
      await eventually(async () => (await ownDoc.send(new GetCommand({ TableName: own.tableNames.feed, Key: key }))).Item === undefined, {
        timeoutMs: 90_000,
        intervalMs: 1000,
      });
    } finally {
      await own.stop();
      Object.assign(process.env, stack.env); // startLocalStack pointed this worker's env at `own`
    }
  }, 120_000);
});
