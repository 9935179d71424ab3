/**
 * Follows of one user at once: the follower count is split over
 * FOLLOWER_SHARDS items (model/profile.ts), so concurrent follows of one user do not all update
 * one item, and the count stays exact — through the API, across unfollows, across the pull
 * threshold (FANOUT_PULL_THRESHOLD = 50 on the shared stack), and when a follow loses a
 * transaction race (injected here: DynamoDB Local does not raise TransactionConflict) and retries
 * on the next shard.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { feedHeadKey, parseFeedHead } from '../../functions/model/feed-head.js';
import { FOLLOWER_SHARDS, followerShardKey, followerShardOf, PROFILE_PREFIX, profileKey } from '../../functions/model/profile.js';
import { dynamo as handlerDynamo } from '../../functions/platform/clients.js';
import { forEachLimit } from '../../functions/platform/pool.js';
import { follow } from '../../functions/services/follow-graph.js';
import { api, apiRetrying503 } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';

/** The profile partition's items: the profile item and the follower-count shards. */
async function profileItems(user: string): Promise<Record<string, unknown>[]> {
  const out = await doc.send(
    new QueryCommand({
      TableName: stack.tableNames.graph,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': profileKey(user).pk, ':p': PROFILE_PREFIX },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

const shardCount = async (user: string, shard: number) =>
  Number(
    String(
      (await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: followerShardKey(user, shard), ConsistentRead: true }))).Item?.followers ?? 0,
    ),
  );

const isPulledFor = async (reader: string, author: string) =>
  parseFeedHead((await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: feedHeadKey(reader), ConsistentRead: true }))).Item).pulled.includes(
    author,
  );

describe('a user followed by many at once', () => {
  it('counts every concurrent follow and unfollow exactly, on many items, and crosses the pull threshold', async () => {
    const star = uid('star');
    const fans = Array.from({ length: 80 }, () => uid('fan'));
    await forEachLimit(fans, 24, async (fan) => {
      expect((await apiRetrying503('PUT', `/following/${star}`, { as: fan })).status).toBe(204);
    });
    expect((await api('GET', `/users/${star}`, { as: star })).body).toEqual({ userId: star, followers: 80, following: 0 });

    // The count is spread: no item holds it all, and the profile item itself holds none of it.
    const items = await profileItems(star);
    const counts = items.filter((i) => i.sk !== profileKey(star).sk).map((i) => Number(String(i.followers ?? 0)));
    expect(counts.length).toBeGreaterThan(FOLLOWER_SHARDS / 2);
    expect(Math.max(...counts)).toBeLessThan(20);
    expect(counts.reduce((s, n) => s + n, 0)).toBe(80);

    // 50 is the threshold: the star is pulled, and every fan's pulled set names them — the follows
    // that raced the pull job included (each checked the flag on its own shard).
    await eventually(async () => (await Promise.all(fans.map((f) => isPulledFor(f, star)))).every(Boolean), { timeoutMs: 30_000, intervalMs: 200 });
    expect((await profileItems(star)).every((i) => i.pulled === true)).toBe(true);

    const leaving = fans.slice(0, 40);
    await forEachLimit(leaving, 24, async (fan) => {
      expect((await apiRetrying503('DELETE', `/following/${star}`, { as: fan })).status).toBe(204);
    });
    expect((await api('GET', `/users/${star}`, { as: star })).body).toEqual({ userId: star, followers: 40, following: 0 });
    expect((await api('GET', '/me', { as: fans[60]! })).body).toMatchObject({ following: 1 });
    expect((await api('GET', '/me', { as: fans[0]! })).body).toMatchObject({ following: 0 });
    // Below 45 (90 % of 50): pushed again, and the pulled sets are emptied.
    await eventually(async () => !(await isPulledFor(fans[60]!, star)), { timeoutMs: 30_000, intervalMs: 200 });
  }, 120_000); // two threshold crossings, each a job of the maintenance lane

  describe('a follow that loses a transaction race', () => {
    let conflicts = 0;
    const name = 'injectFollowConflicts';
    afterEach(() => handlerDynamo.middlewareStack.remove(name));

    it('retries on the next shard, and counts once', async () => {
      const star = uid('star');
      const fan = uid('fan');
      conflicts = 1;
      // The first follow transaction of this pair is cancelled as DynamoDB cancels a conflicting one.
      handlerDynamo.middlewareStack.add(
        (next, context) => async (args) => {
          const items = (args.input as { TransactItems?: { Put?: { Item?: { pk?: unknown; sk?: unknown } } }[] }).TransactItems;
          const edge = items?.[0]?.Put?.Item;
          if (context.commandName?.startsWith('TransactWrite') && conflicts > 0 && edge?.sk !== undefined) {
            const sk = (edge.sk as { S?: string }).S ?? edge.sk;
            if (sk === star) {
              conflicts -= 1;
              throw Object.assign(new Error('Transaction cancelled'), {
                name: 'TransactionCanceledException',
                CancellationReasons: items!.map((_, i) => ({ Code: i === 3 ? 'TransactionConflict' : 'None' })),
              });
            }
          }
          return next(args);
        },
        { step: 'initialize', name },
      );
      await follow(fan, star);
      expect(conflicts).toBe(0);
      const first = followerShardOf(fan, 1);
      const second = followerShardOf(fan, 2);
      expect(second).not.toBe(first);
      expect(await shardCount(star, first)).toBe(0);
      expect(await shardCount(star, second)).toBe(1);
      expect((await api('GET', `/users/${star}`, { as: fan })).body).toEqual({ userId: star, followers: 1, following: 0 });
      // A repeat is a no-op: the edge's condition fails, nothing is counted again.
      await follow(fan, star);
      expect((await api('GET', `/users/${star}`, { as: fan })).body).toMatchObject({ followers: 1 });
    });
  });
});
