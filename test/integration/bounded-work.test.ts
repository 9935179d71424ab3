/**
 * Bounded work per caller on the shared local stack: rollup reads refuse ranges
 * outside the retained past or more than a day ahead (400 problem+json before any Query), activity
 * windows read a bounded key range, and following stops at MAX_FOLLOWING (409) — under concurrency
 * too — while a repeat follow stays 204.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { configKeys } from '../../lib/defs/index.js';
import { activityEntryKey } from '../../functions/model/activity-entry.js';
import { profileKey } from '../../functions/model/profile.js';
import { windowEnd, windowStart } from '../../functions/services/rollups/windows.js';
import { readActivityEntries } from '../../functions/stores/stats-store.js';
import { ADMIN, api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const rollups = (query: string) => api('GET', `/rollups/x.count?${query}`, { as: uid('backend'), scope: ADMIN });

async function refused(res: Awaited<ReturnType<typeof api>>, field: string) {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect((res.body as { errors: { field: string }[] }).errors.map((e) => e.field)).toContain(field);
}

describe('rollup reads: bounded work', () => {
  const ttlMs = 90 * DAY; // ROLLUP_TTL default on the shared stack
  expect(stack.env.ROLLUP_TTL).toBe(configKeys.ROLLUP_TTL.default);

  it('refuses a range starting before the retained past (now − ROLLUP_TTL), accepts one inside it', async () => {
    const now = Date.now();
    await refused(await rollups(`granularity=hour&from=${iso(now - ttlMs - DAY)}&to=${iso(now - ttlMs + DAY)}`), 'query.from');
    const ok = await rollups(`granularity=hour&from=${iso(now - ttlMs + HOUR)}&to=${iso(now - ttlMs + DAY)}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ name: 'x.count', granularity: 'hour', points: [] });
  });

  it('refuses a range ending more than a day ahead of now — the issue’s 1,438-Query probe among them', async () => {
    const now = Date.now();
    await refused(await rollups(`granularity=hour&from=${iso(now)}&to=${iso(now + 2 * DAY)}`), 'query.to');
    await refused(await rollups('granularity=day&from=2200-01-01T00:00:00Z&to=2203-12-10T00:00:00Z'), 'query.to');
    expect((await rollups(`granularity=hour&from=${iso(now)}&to=${iso(now + DAY - HOUR)}`)).status).toBe(200);
  });

  it('serves the default read (the 60 intervals up to now) at every granularity', async () => {
    for (const g of ['minute', 'hour', 'day']) expect((await rollups(`granularity=${g}`)).status, g).toBe(200);
  });
});

describe('activity windows: a bounded range', () => {
  it('reads the window’s buckets only: entries in later (future) buckets are not read at all', async () => {
    const user = uid('win');
    const cfg = { bucketMs: HOUR, buckets: 24 }; // ACTIVITY_BUCKET / ACTIVITY_BUCKETS defaults
    const now = Date.now();
    const current = Math.floor(now / HOUR) * HOUR;
    const entry = (start: number, id: string) =>
      doc.send(new PutCommand({ TableName: stack.tableNames.stats, Item: { ...activityEntryKey(user, start, id), start: iso(start), count: 1 } }));
    await entry(current - 2 * HOUR, 'past');
    await entry(current, 'now');
    await entry(current + HOUR, 'next-bucket'); // e.g. a post with `time` minutes ahead, across the hour
    await entry(current + 30 * DAY, 'far-future');
    const read = await readActivityEntries(user, windowStart(now, 3, cfg), windowEnd(now, cfg));
    expect(read.map((e) => e.startMs).sort()).toEqual([current - 2 * HOUR, current]);

    const res = await api('GET', `/users/${user}/activity?window=3h`, { as: user });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
  });
});

describe('following: MAX_FOLLOWING', () => {
  const max = Number(configKeys.MAX_FOLLOWING.default);
  const follow = (follower: string, followee: string) => api('PUT', `/following/${followee}`, { as: follower });
  const followingOf = async (user: string) =>
    Number(String((await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: profileKey(user), ConsistentRead: true }))).Item?.following ?? 0));
  /** Sets the follower's counter as if they followed `n` users (the counter is what the limit reads). */
  const seedFollowing = (user: string, n: number) =>
    doc.send(
      new UpdateCommand({
        TableName: stack.tableNames.graph,
        Key: profileKey(user),
        UpdateExpression: 'SET following = :n',
        ExpressionAttributeValues: { ':n': n },
      }),
    );

  it('refuses one more follow with 409 problem+json; a repeat follow stays 204; unfollowing makes room', async () => {
    const me = uid('max');
    const [a, b, c] = [uid('a'), uid('b'), uid('c')];
    await seedFollowing(me, max - 1);
    expect((await follow(me, a)).status).toBe(204);
    expect(await followingOf(me)).toBe(max);

    const over = await follow(me, b);
    expect(over.status).toBe(409);
    expect(over.headers.get('content-type')).toBe('application/problem+json');
    expect(over.body).toMatchObject({ status: 409, code: 'conflict' });
    expect(over.body.detail).toContain(String(max));
    expect((await api('GET', `/users/${b}`, { as: me })).body).toMatchObject({ followers: 0 }); // nothing written
    expect(await followingOf(me)).toBe(max);

    expect((await follow(me, a)).status).toBe(204); // idempotent repeat at the limit: no change
    expect(await followingOf(me)).toBe(max);

    expect((await api('DELETE', `/following/${a}`, { as: me })).status).toBe(204);
    expect((await follow(me, c)).status).toBe(204);
    expect(await followingOf(me)).toBe(max);
  });

  it('never lets concurrent follows pass the limit', async () => {
    const me = uid('race');
    await seedFollowing(me, max - 3);
    const targets = Array.from({ length: 8 }, () => uid('t'));
    const statuses = (await Promise.all(targets.map((t) => follow(me, t)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 204)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect(await followingOf(me)).toBe(max);
    const followers = await Promise.all(targets.map(async (t) => (await api('GET', `/users/${t}`, { as: me })).body.followers as number));
    expect(followers.reduce((s, n) => s + n, 0)).toBe(3);
  });
});
