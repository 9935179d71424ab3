/**
 * Fan-out through the real pipeline of the shared local stack: original written to the author's
 * timeline → stream poller → outbox → SQS → worker → BatchWrite copies into home feeds. Some
 * originals are written directly in the shape posting uses (test/support/seed-originals), to
 * choose their positions.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { meterCapacity } from '../../bench/capacity.js';
import { homeFeedKey } from '../../functions/model/feed-copy.js';
import { timelineKey } from '../../functions/model/timeline-item.js';
import * as handlerClients from '../../functions/platform/clients.js';
import { runJob } from '../../functions/services/jobs/run.js';
import { follow, unfollow } from '../../functions/services/follow-graph.js';
import { feedCount, feedCounts, feedRks } from '../support/feeds.js';
import { seedFollowers } from '../support/graph-seed.js';
import { api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';
import { copyItem, type FeedItem, originalItem, writeFeedItems } from '../support/seed-originals.js';

const meter = meterCapacity(handlerClients.dynamo);

function originals(actor: string, n: number, startMs = Date.now() - n * 1000): FeedItem[] {
  return Array.from({ length: n }, (_, i) => originalItem({ actor, verb: 'post', timeMs: startMs + i * 1000 }));
}

describe('fan-out', () => {
  it('delivers a post to each of 1,000 followers exactly once, and not to users who unfollowed', async () => {
    const author = uid('star');
    const leavers = Array.from({ length: 5 }, () => uid('leaver'));
    for (const l of leavers) expect((await api('PUT', `/following/${author}`, { as: l })).status).toBe(204);
    for (const l of leavers) expect((await api('DELETE', `/following/${author}`, { as: l })).status).toBe(204);
    let t = Date.now();
    const followers = await seedFollowers(author, 1000);
    const seeded = Date.now() - t;

    t = Date.now();
    const posted = await api('POST', '/activities', { as: author, json: { verb: 'post', content: 'hello, 1,000' } });
    expect(posted.status).toBe(201);
    // Cheap probe (a spread sample) until the fan-out has begun, then until every follower has it: a
    // page's 20 BatchWriteItem calls land one after another, so a sample can be ahead of the rest.
    const sample = followers.filter((_, i) => i % 50 === 0 || i === followers.length - 1);
    await eventually(async () => [...(await feedCounts(sample)).values()].every((c) => c === 1), { timeoutMs: 100_000, intervalMs: 200 });
    await eventually(async () => [...(await feedCounts(followers)).values()].every((c) => c >= 1), { timeoutMs: 60_000, intervalMs: 500 });
    console.log(`1,000 followers: seeded in ${seeded} ms, delivered in ${Date.now() - t} ms`);
    const counts = await feedCounts([...followers, ...leavers]);
    expect(followers.filter((f) => counts.get(f) !== 1)).toEqual([]);
    expect(leavers.map((l) => counts.get(l))).toEqual([0, 0, 0, 0, 0]);
    // The copy is the post as the follower reads it.
    const page = await api('GET', '/feed', { as: followers[500]! });
    expect(page.body.items).toEqual([posted.body]);
    const profile = await api('GET', `/users/${author}`, { as: author });
    expect(profile.body).toEqual({ userId: author, followers: 1000, following: 0 });
  }, 120_000);

  it('propagates a delete of the original to every copy', async () => {
    const author = uid('del');
    const followers = await seedFollowers(author, 200);
    const posted = await api('POST', '/activities', { as: author, json: { verb: 'post' } });
    const kept = await api('POST', '/activities', { as: author, json: { verb: 'post' } });
    await eventually(async () => [...(await feedCounts(followers)).values()].every((c) => c === 2), { timeoutMs: 30_000, intervalMs: 300 });
    expect((await api('DELETE', `/activities/${posted.body.id}`, { as: author })).status).toBe(204);
    await eventually(async () => [...(await feedCounts(followers)).values()].every((c) => c === 1), { timeoutMs: 30_000, intervalMs: 300 });
    // The author's own copy goes too; the other post is untouched.
    await eventually(async () => (await feedCount(author)) === 1, { timeoutMs: 10_000, intervalMs: 200 });
    expect((await api('GET', '/feed', { as: followers[0]! })).body.items).toEqual([kept.body]);
  }, 120_000);

  it("does not retract copies when an item is only removed by retention (a trim of the author's home feed, TTL of the original)", async () => {
    const author = uid('rm');
    const followers = await seedFollowers(author, 30);
    const [post] = originals(author, 1);
    await writeFeedItems([post!]);
    await eventually(async () => [...(await feedCounts(followers)).values()].every((c) => c === 1), { timeoutMs: 30_000, intervalMs: 300 });
    // A trim of the author's home feed removes their copy, and TTL (TIMELINE_TTL) the original:
    // plain REMOVEs, never a retraction — followers' copies follow their own feeds' retention.
    await doc.send(new DeleteCommand({ TableName: stack.tableNames.feed, Key: homeFeedKey(author, post!.rk) }));
    await doc.send(new DeleteCommand({ TableName: stack.tableNames.feed, Key: timelineKey(author, post!.rk) }));
    // A later post's fan-out proves the stream has moved past the REMOVE.
    const [later] = originals(author, 1, Date.now());
    await writeFeedItems([later!]);
    await eventually(async () => [...(await feedCounts(followers)).values()].every((c) => c === 2), { timeoutMs: 30_000, intervalMs: 300 });
  }, 120_000);
});

describe('follow graph', () => {
  it('keeps counts exact under concurrent, repeated follows and unfollows', async () => {
    const target = uid('target');
    const stayers = Array.from({ length: 20 }, () => uid('s'));
    const leavers = Array.from({ length: 10 }, () => uid('l'));
    const late = Array.from({ length: 10 }, () => uid('n'));
    const put = (u: string) => api('PUT', `/following/${target}`, { as: u });
    const del = (u: string) => api('DELETE', `/following/${target}`, { as: u });
    // Every request twice, all at once.
    const first = await Promise.all([...stayers, ...leavers].flatMap((u) => [put(u), put(u)]));
    expect(first.every((r) => r.status === 204)).toBe(true);
    const second = await Promise.all([...leavers.flatMap((u) => [del(u), del(u)]), ...late.flatMap((u) => [put(u), put(u)])]);
    expect(second.every((r) => r.status === 204)).toBe(true);

    const profile = await api('GET', `/users/${target}`, { as: target });
    expect(profile.body).toEqual({ userId: target, followers: 30, following: 0 });
    for (const u of [stayers[0]!, leavers[0]!, late[0]!]) {
      const p = await api('GET', `/users/${u}`, { as: u });
      expect(p.body.following).toBe(u.startsWith('l-') ? 0 : 1);
    }
    // Paging: newest follow first, no gaps, no duplicates.
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const res: { status: number; body: { items: { userId: string }[]; next: string | null } } = await api(
        'GET',
        `/users/${target}/followers?limit=7${cursor ? `&cursor=${cursor}` : ''}`,
        { as: target },
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((x: { userId: string }) => x.userId));
      cursor = res.body.next;
      if (cursor === null) break;
    }
    expect(new Set(seen).size).toBe(30);
    expect(new Set(seen)).toEqual(new Set([...stayers, ...late]));
    expect(late).toContain(seen[0]); // the late followers followed last
    const following = await api('GET', `/users/${stayers[0]}/following`, { as: stayers[0] });
    expect(following.body.items).toEqual([{ userId: target }]);
  }, 120_000);

  it('refuses to follow oneself with a 400 problem', async () => {
    const me = uid('self');
    const res = await api('PUT', `/following/${me}`, { as: me });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect((await api('GET', `/users/${me}`, { as: me })).body.following).toBe(0);
  }, 120_000);

  it('backfills the newest BACKFILL_LIMIT posts on follow and removes them on unfollow', async () => {
    const author = uid('bf');
    // A sentinel follower tells us when the posts' own fan-out is over, so that it cannot reach
    // the reader (who follows after it) and blur what the backfill copied.
    const [sentinel] = await seedFollowers(author, 1);
    const posts = originals(author, 120);
    await writeFeedItems(posts);
    await eventually(async () => (await feedCount(sentinel!)) === 120, { timeoutMs: 30_000, intervalMs: 200 });
    const reader = uid('reader');
    expect((await api('PUT', `/following/${author}`, { as: reader })).status).toBe(204);
    await eventually(async () => (await feedCount(reader)) === 100, { timeoutMs: 30_000, intervalMs: 200 });
    const newest100 = posts
      .map((p) => p.rk)
      .sort((a, b) => (a < b ? -1 : 1))
      .slice(0, 100)
      .map(String);
    expect(await feedRks(reader)).toEqual(newest100);
    expect((await api('DELETE', `/following/${author}`, { as: reader })).status).toBe(204);
    await eventually(async () => (await feedCount(reader)) === 0, { timeoutMs: 30_000, intervalMs: 200 });
  }, 120_000);

  it("removes an unfollowed user's posts at a cost proportional to what is removed, not to the feed", async () => {
    const reader = uid('reader');
    const small = uid('small');
    const big = uid('big');
    await follow(reader, small); // service calls in this process: the cleanup run below is ours to meter
    await follow(reader, big);
    const posts = { [small]: originals(small, 10), [big]: originals(big, 40) };
    await writeFeedItems([...posts[small]!, ...posts[big]!]);
    await eventually(async () => (await feedCount(reader)) === 50, { timeoutMs: 30_000, intervalMs: 200 });
    // A big feed of other users' posts, which the cleanup must not pay for.
    const filler = Array.from({ length: 1000 }, (_, i) =>
      copyItem({ ...originalItem({ actor: `other-${i % 50}`, verb: 'post', timeMs: Date.now() - i * 10 }), content: 'x'.repeat(200) }, reader),
    );
    await writeFeedItems(filler);

    const cost = async (followee: string) => {
      const kept = (await feedCount(reader)) - posts[followee]!.length;
      await unfollow(reader, followee);
      // The unfollow queued its own cleanup, which the stack's worker runs at once: wait for it and
      // put the copies back, so that the run metered here is the only one (two at once make a busy
      // DynamoDB Local hand back unprocessed items, metered again: the figure depended on timing).
      // The settle run comes CONTROL_SETTLE (60 s) later.
      await eventually(async () => (await feedCount(reader)) === kept, { timeoutMs: 30_000, intervalMs: 200 });
      await writeFeedItems(posts[followee]!.map((original) => copyItem(original, reader)));
      const before = meter.snapshot();
      await runJob({ kind: 'cleanup', follower: reader, followee });
      return meter.since(before);
    };
    const smallCost = await cost(small);
    const bigCost = await cost(big);
    expect(await feedCount(reader)).toBe(1000);
    // Writes: one delete per removed copy + clearing the edge's pending flag (a busy DynamoDB Local
    // may hand back unprocessed items, whose retry meters again: a few units of slack, far below
    // the 1,000 units a pass over the feed would cost).
    expect(smallCost.write).toBeGreaterThanOrEqual(10 + 1);
    expect(smallCost.write).toBeLessThanOrEqual(1.25 * 10 + 1);
    expect(bigCost.write).toBeGreaterThanOrEqual(40 + 1);
    expect(bigCost.write).toBeLessThanOrEqual(1.25 * 40 + 1);
    // Reads: the edge + the followee's originals (a few KB), far below one pass over the 1,000-item
    // feed (~1000 × 300 B / 4 KB / 2 ≈ 37 RCU).
    expect(smallCost.read).toBeLessThanOrEqual(3);
    expect(bigCost.read).toBeLessThanOrEqual(6);
    console.log('unfollow cleanup cost', { small: smallCost, big: bigCost });
  }, 120_000);
});
