/**
 * Bulk import on the shared stack: POST /batch/follows and /batch/activities
 * take admin tokens only, refuse bad input with nothing written, keep counts exact — also when the
 * same batch is sent again, when a call fails half-way and is retried (failures injected into the
 * SDK client of this worker, which runs the import's service itself), and when the user follows
 * one of the batch's edges while it is written — and imported activities fan out as posts do.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { feedHeadKey, parseFeedHead } from '../../functions/model/feed-head.js';
import { configKeys } from '../../lib/defs/index.js';
import { profileKey } from '../../functions/model/profile.js';
import { afterEach, describe, expect, it } from 'vitest';
import { followListPartition } from '../../functions/model/follow-lists.js';
import { dynamo as handlerDynamo } from '../../functions/platform/clients.js';
import { importFollows } from '../../functions/services/bulk/follows.js';
import { follow } from '../../functions/services/follow-graph.js';
import { feedRks, timelineRks } from '../support/feeds.js';
import { ADMIN, api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';

const max = Number(configKeys.MAX_FOLLOWING.default);
const admin = () => ({ as: uid('backend'), scope: ADMIN });
const counts = async (user: string) => (await api('GET', `/users/${user}`, { as: user })).body as { followers: number; following: number };

/** Every entry of a follow list, read straight from the table (duplicates would show). */
async function listEntries(which: 'followers' | 'following', user: string): Promise<string[]> {
  const out = await doc.send(
    new QueryCommand({
      TableName: stack.tableNames.graph,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': followListPartition(which, user) },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => String(i.userId)).sort();
}

const isPulledFor = async (reader: string, author: string) =>
  parseFeedHead((await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: feedHeadKey(reader), ConsistentRead: true }))).Item).pulled.includes(
    author,
  );

/** `n` followers, each following every one of `followees`. */
const grid = (followers: readonly string[], followees: readonly string[]) =>
  followers.flatMap((follower) => followees.map((followee) => ({ follower, followee })));

describe('POST /batch/follows', () => {
  it("skips a follow of a user the follower blocks, read by key or from the follower's controls", async () => {
    const [keyed, queried, blocked] = [uid('imp-bk'), uid('imp-bq'), uid('imp-bd')];
    const others = Array.from({ length: 4 }, () => uid('imp-bo'));
    for (const who of [keyed, queried]) expect((await api('PUT', `/blocks/${blocked}`, { as: who })).status).toBe(204);
    // `queried` has 5 edges in the batch: their controls come from Queries of their partition, not keys (follow-import-store.ts).
    const follows = [{ follower: keyed, followee: blocked }, ...[blocked, ...others].map((followee) => ({ follower: queried, followee }))];
    const res = await api('POST', '/batch/follows', { ...admin(), json: { follows } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      created: 4,
      existing: 0,
      skipped: [
        { follower: keyed, followee: blocked, reason: 'blocked' },
        { follower: queried, followee: blocked, reason: 'blocked' },
      ],
    });
    expect(await counts(blocked)).toMatchObject({ followers: 0 });
  });

  it('creates the follows with exact counts, skips a blocked one, and a second send creates nothing', async () => {
    const followers = Array.from({ length: 4 }, () => uid('imp-fr'));
    const followees = Array.from({ length: 30 }, () => uid('imp-fe'));
    const [blocker, muter] = [followees[0]!, followers[1]!];
    expect((await api('PUT', `/following/${followees[5]}`, { as: followers[0]! })).status).toBe(204); // stands already
    expect((await api('PUT', `/blocks/${followers[2]}`, { as: blocker })).status).toBe(204);
    expect((await api('PUT', `/mutes/${followees[7]}`, { as: muter })).status).toBe(204);
    const edges = grid(followers, followees);
    const body = { follows: [...edges, edges[10]!] }; // one edge twice

    const first = await api('POST', '/batch/follows', { ...admin(), json: body });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ created: 118, existing: 2, skipped: [{ follower: followers[2], followee: blocker, reason: 'blocked' }] });
    for (const f of followees.slice(1)) expect(await counts(f)).toMatchObject({ followers: 4 });
    expect(await counts(blocker)).toMatchObject({ followers: 3 });
    for (const f of followers) expect(await counts(f)).toMatchObject({ following: f === followers[2] ? 29 : 30 });
    expect(await listEntries('followers', followees[5]!)).toEqual([...followers].sort());
    expect(await listEntries('following', followers[0]!)).toEqual([...followees].sort());
    // No notifications: the followees' notification feeds stay empty.
    expect((await api('GET', '/notifications', { as: followees[3]! })).body.items).toEqual([]);
    // The muted follow stands, flagged: the muter's feed gets nothing of theirs.
    const post = await api('POST', '/activities', { as: followees[7]!, json: { verb: 'post', content: 'hi' } });
    await eventually(async () => (await feedRks(followers[0]!)).includes(post.body.rangeKey), { timeoutMs: 20_000, intervalMs: 200 });
    expect(await feedRks(muter)).not.toContain(post.body.rangeKey);

    const again = await api('POST', '/batch/follows', { ...admin(), json: body });
    expect(again.body).toEqual({ created: 0, existing: 120, skipped: [{ follower: followers[2], followee: blocker, reason: 'blocked' }] });
    expect(await counts(followees[9]!)).toMatchObject({ followers: 4 });
    expect(await counts(followers[3]!)).toMatchObject({ following: 30 });
    expect(await listEntries('followers', followees[9]!)).toEqual([...followers].sort());
  });

  it('skips what passes MAX_FOLLOWING and erased users, and backfills only when asked', async () => {
    const [author, witness] = [uid('imp-author'), uid('imp-witness')];
    expect((await api('PUT', `/following/${author}`, { as: witness })).status).toBe(204);
    const posted = await api('POST', '/activities', { as: author, json: { verb: 'post', content: 'old news' } });
    expect(posted.status).toBe(201);
    // The post's fan-out reads the follower list when it runs: once the witness has its copy, it
    // has read it, so a follow imported from here on is not among its recipients.
    await eventually(async () => (await feedRks(witness)).includes(posted.body.rangeKey), { timeoutMs: 20_000, intervalMs: 200 });
    const [plain, filled, capped] = [uid('imp-plain'), uid('imp-filled'), uid('imp-capped')];
    const gone = uid('imp-gone');
    expect((await api('DELETE', '/me', { as: gone })).status).toBe(202); // marked at once; the erase runs on
    // The capped user follows one short of the limit (the counter is what the limit reads).
    await doc.send(
      new UpdateCommand({
        TableName: stack.tableNames.graph,
        Key: profileKey(capped),
        UpdateExpression: 'SET following = :n',
        ExpressionAttributeValues: { ':n': max - 1 },
      }),
    );
    const [x, y] = [uid('imp-x'), uid('imp-y')];

    const res = await api('POST', '/batch/follows', {
      ...admin(),
      json: {
        follows: [
          { follower: plain, followee: author },
          { follower: plain, followee: gone },
          { follower: capped, followee: x },
          { follower: capped, followee: y },
        ],
      },
    });
    // Sorted by follower, then followee: the capped user's first edge fits, the second does not.
    const [fits, over] = [x, y].sort();
    expect(res.body.created).toBe(2);
    expect(res.body.skipped).toEqual(
      expect.arrayContaining([
        { follower: plain, followee: gone, reason: 'erased' },
        { follower: capped, followee: over, reason: 'limit' },
      ]),
    );
    expect(await counts(capped)).toMatchObject({ following: max });
    expect(await counts(fits!)).toMatchObject({ followers: 1 });
    expect(await counts(over!)).toMatchObject({ followers: 0 });
    const withBackfill = await api('POST', '/batch/follows', { ...admin(), json: { follows: [{ follower: filled, followee: author }], backfill: true } });
    expect(withBackfill.body).toMatchObject({ created: 1 });
    await eventually(async () => (await feedRks(filled)).includes(posted.body.rangeKey), { timeoutMs: 20_000, intervalMs: 200 });
    expect(await feedRks(plain)).not.toContain(posted.body.rangeKey);
    expect(await counts(author)).toMatchObject({ followers: 3 });
  });

  it('pulls a followee the batch takes past FANOUT_PULL_THRESHOLD (50 here), with every new follower in the pulled set', async () => {
    const star = uid('imp-star');
    const fans = Array.from({ length: 60 }, () => uid('imp-fan'));
    const res = await api('POST', '/batch/follows', { ...admin(), json: { follows: fans.map((follower) => ({ follower, followee: star })) } });
    expect(res.body).toMatchObject({ created: 60 });
    expect(await counts(star)).toMatchObject({ followers: 60 });
    await eventually(async () => (await Promise.all(fans.map((f) => isPulledFor(f, star)))).every(Boolean), { timeoutMs: 30_000, intervalMs: 200 });
  });

  it('answers 403 to a user token and 400 to bad input, writing nothing', async () => {
    const [a, b] = [uid('imp-a'), uid('imp-b')];
    const ok = { follows: [{ follower: a, followee: b }] };
    const user = await api('POST', '/batch/follows', { as: a, json: ok });
    expect(user.status).toBe(403);
    for (const bad of [
      { follows: [] },
      {
        follows: [
          { follower: a, followee: b },
          { follower: a, followee: a },
        ],
      },
      { follows: [{ follower: a, followee: b, extra: 1 }] },
      { follows: [{ follower: a, followee: '' }] },
      { follows: ok.follows, backfill: 'yes' },
      { follows: Array.from({ length: 1001 }, (_, i) => ({ follower: a, followee: `${b}-${i}` })) },
    ]) {
      const res = await api('POST', '/batch/follows', { ...admin(), json: bad });
      expect(res.status, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
    expect(await counts(b)).toEqual({ userId: b, followers: 0, following: 0 });
    expect(await listEntries('following', a)).toEqual([]);
  });
});

describe('an import that fails half-way, retried', () => {
  const name = 'injectImportFailure';
  afterEach(() => handlerDynamo.middlewareStack.remove(name));

  /** Fail the `nth` call (1-based) of a command whose name starts with `command`, once. */
  function failOnce(command: string, nth: number, when: 'before' | 'after' = 'before') {
    let seen = 0;
    handlerDynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (!context.commandName?.startsWith(command) || ++seen !== nth) return next(args);
        if (when === 'before') throw new Error(`injected failure before ${context.commandName} #${nth}`);
        await next(args);
        throw new Error(`injected failure after ${context.commandName} #${nth}`);
      },
      { step: 'initialize', name },
    );
  }

  for (const [what, command, nth, when] of [
    ['while writing list entries', 'BatchWrite', 4, 'before'],
    ['while writing edges', 'BatchWrite', 18, 'before'],
    ['after the first counter transaction', 'TransactWrite', 1, 'after'],
    ['before the journal is done', 'Put', 3, 'before'],
  ] as const) {
    it(`counts exactly once when it failed ${what}`, async () => {
      const followers = Array.from({ length: 3 }, () => uid('rt-fr'));
      const followees = Array.from({ length: 60 }, () => uid('rt-fe'));
      const edges = grid(followers, followees);
      failOnce(command, nth, when);
      await expect(importFollows(edges, false)).rejects.toThrow(/injected failure/);
      handlerDynamo.middlewareStack.remove(name);
      const retry = await importFollows(edges, false);
      expect(retry).toEqual({ created: 180, existing: 0, skipped: [] });
      for (const f of followees) expect(await counts(f), f).toMatchObject({ followers: 3 });
      for (const f of followers) expect(await counts(f)).toMatchObject({ following: 60 });
      expect(await listEntries('followers', followees[59]!)).toEqual([...followers].sort());
      expect(await importFollows(edges, false)).toEqual({ created: 0, existing: 180, skipped: [] });
    });
  }

  it('counts a follow once when the user makes it while the batch is written', async () => {
    const [fan, idol] = [uid('race-fan'), uid('race-idol')];
    const others = Array.from({ length: 10 }, () => uid('race-other'));
    const edges = [{ follower: fan, followee: idol }, ...others.map((o) => ({ follower: fan, followee: o }))];
    let raced = false;
    // Just before the import's first write, the fan follows the idol themselves (after the plan read it absent).
    handlerDynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (!raced && context.commandName?.startsWith('BatchWrite')) {
          raced = true;
          handlerDynamo.middlewareStack.remove(name);
          await follow(fan, idol);
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    const res = await importFollows(edges, false);
    expect(raced).toBe(true);
    expect(res).toEqual({ created: 10, existing: 1, skipped: [] });
    expect(await counts(idol)).toMatchObject({ followers: 1 });
    expect(await counts(fan)).toMatchObject({ following: 11 });
    expect(await listEntries('followers', idol)).toEqual([fan]);
    expect((await listEntries('following', fan)).filter((u) => u === idol)).toEqual([idol]);
  });
});

describe('POST /batch/activities', () => {
  it('posts in order as each actor, keeps a past time, fans out, and answers 200 for a foreignId posted before', async () => {
    const [ann, bob, reader] = [uid('ia-ann'), uid('ia-bob'), uid('ia-reader')];
    for (const a of [ann, bob]) expect((await api('PUT', `/following/${a}`, { as: reader })).status).toBe(204);
    const past = '2019-03-04T05:06:07.000000008Z';
    const activities = [
      { actor: ann, verb: 'post', content: 'first', time: past, foreignId: 'old-1' },
      { actor: bob, verb: 'post', content: 'second', attributes: { score: 3 } },
      { actor: ann, verb: 'post', content: 'third', foreignId: 'old-2' },
    ];
    const res = await api('POST', '/batch/activities', { ...admin(), json: { activities } });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { status: number }) => i.status)).toEqual([201, 201, 201]);
    const ids = res.body.items.map((i: { id: string }) => i.id);
    const first = await api('GET', `/activities/${ids[0]}`, { as: reader });
    expect(first.body).toMatchObject({ actor: ann, content: 'first', time: past, foreignId: 'old-1' });
    // Fanned out to the reader, newest (the last given) first.
    const page = await eventually(
      async () => {
        const p = await api('GET', '/feed', { as: reader });
        return p.body.items.length === 3 ? p.body : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(page.items.map((i: { id: string }) => i.id)).toEqual([...ids].reverse());

    const again = await api('POST', '/batch/activities', { ...admin(), json: { activities: [activities[0], activities[2]] } });
    expect(again.body).toEqual({
      items: [
        { id: ids[0], status: 200, version: 1 },
        { id: ids[2], status: 200, version: 1 },
      ],
    });
    expect(await timelineRks(ann)).toHaveLength(2);

    // A known foreignId with changed fields updates its activity (an edit: a new version, every copy).
    const changed = { ...activities[2]!, content: 'third, fixed', attributes: { level: 2 } };
    const updated = await api('POST', '/batch/activities', { ...admin(), json: { activities: [changed] } });
    expect(updated.body).toEqual({ items: [{ id: ids[2], status: 200, version: 2 }] });
    expect((await api('GET', `/activities/${ids[2]}`, { as: reader })).body).toMatchObject({ content: 'third, fixed', attributes: { level: 2 }, version: 2 });
    await eventually(
      async () => {
        const p = await api('GET', '/feed', { as: reader });
        return p.body.items.find((i: { id: string; version: number }) => i.id === ids[2] && i.version === 2);
      },
      { what: "the edit in the reader's copy", timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(await timelineRks(ann)).toHaveLength(2);
  });

  const six = (p: string) => Array.from({ length: 6 }, (_, i) => `${p}${i}`);
  const importBatch = (activities: unknown) => api('POST', '/batch/activities', { ...admin(), json: { activities } });
  const stored = async (id: string) => (await api('GET', `/activities/${id}`, { as: uid('reader') })).body as { tags: string[] | null; version: number };

  it("takes an update's tags from the item, as a post does, also when nothing else changed", async () => {
    const ann = uid('ia-ann');
    const first = await importBatch([{ actor: ann, verb: 'post', content: 'kept', foreignId: 'tagged', tags: ['alpha'] }]);
    const id = first.body.items[0].id;
    const retagged = await importBatch([{ actor: ann, verb: 'post', content: 'kept #gamma', foreignId: 'tagged', tags: ['alpha', 'beta'] }]);
    expect(retagged.body).toEqual({ items: [{ id, status: 200, version: 2 }] });
    expect(await stored(id)).toMatchObject({ tags: ['gamma', 'alpha', 'beta'], version: 2 });
    const only = await importBatch([{ actor: ann, verb: 'post', content: 'kept #gamma', foreignId: 'tagged', tags: ['beta'] }]);
    expect(only.body).toEqual({ items: [{ id, status: 200, version: 3 }] });
    expect(await stored(id)).toMatchObject({ tags: ['gamma', 'beta'], version: 3 });
    const same = await importBatch([{ actor: ann, verb: 'post', content: 'kept #gamma', foreignId: 'tagged', tags: ['beta'] }]);
    expect(same.body).toEqual({ items: [{ id, status: 200, version: 3 }] }); // nothing written
  });

  it("counts an update's own tags against MAX_TAGS, before anything of the batch is written", async () => {
    const [ann, bob] = [uid('ia-ann'), uid('ia-bob')];
    const first = await importBatch([{ actor: ann, verb: 'post', content: 'six apart', foreignId: 'six', tags: six('old') }]);
    const id = first.body.items[0].id;
    // Six #hashtags replacing six tags given apart: six tags, not twelve — and the new post beside it is posted.
    const hashtags = six('new')
      .map((t) => `#${t}`)
      .join(' ');
    const mixed = await importBatch([
      { actor: bob, verb: 'post', content: 'fresh' },
      { actor: ann, verb: 'post', content: hashtags, foreignId: 'six' },
    ]);
    expect(mixed.status).toBe(200);
    expect(mixed.body.items.map((i: { status: number; version: number }) => [i.status, i.version])).toEqual([
      [201, 1],
      [200, 2],
    ]);
    expect(await stored(id)).toMatchObject({ tags: six('new'), version: 2 });

    // Beyond MAX_TAGS in an update: its field is named, and nothing of the batch is written.
    const over = await importBatch([
      { actor: bob, verb: 'post', content: 'not posted' },
      { actor: ann, verb: 'post', content: hashtags, foreignId: 'six', tags: six('more').slice(0, 5) },
    ]);
    expect(over.status).toBe(400);
    expect(over.body.errors.map((e: { field: string }) => e.field)).toContain('body.activities.1.tags');
    expect(await timelineRks(bob)).toHaveLength(1);
    expect(await stored(id)).toMatchObject({ tags: six('new'), version: 2 });
  });

  it('answers 403 to a user token and 400 to what it would refuse, and writes nothing', async () => {
    const [ann, bob] = [uid('ia-ann'), uid('ia-bob')];
    const one = { actor: ann, verb: 'post', content: 'x' };
    expect((await api('POST', '/batch/activities', { as: ann, json: { activities: [one] } })).status).toBe(403);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    for (const [bad, field] of [
      [{ activities: [] }, 'body.activities'],
      [{ activities: [one, { verb: 'post' }] }, 'body.activities.1.actor'],
      [{ activities: [one, { ...one, to: [bob] }] }, 'body.activities.1.to'],
      [{ activities: [one, one, { ...one, time: future }] }, 'body.activities.2.time'],
      [{ activities: Array.from({ length: 101 }, () => one) }, 'body.activities'],
    ] as const) {
      const res = await api('POST', '/batch/activities', { ...admin(), json: bad });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    // The refusals came before any post: the valid activities beside a refused one were not posted.
    expect(await timelineRks(ann)).toEqual([]);
  });
});
