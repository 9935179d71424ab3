/**
 * No user can harm another, on a stack of its own: CONTROL_SETTLE 2 s
 * (an erase finishes in seconds), NOTIFY_STRANGER_LIMIT 3, NOTIFICATIONS_MAX_ITEMS 4 (a trim once
 * 4 + 1 groups are exceeded) and REACTION_KINDS at its largest allowed size.
 *  1. an erase keeps the blocks and mutes others placed on the erased user, holding only a hash of
 *     the id, and they apply again when the same `sub` comes back;
 *  2. a `to` is its own kind of group: it cannot pose as a follow or a like, and deleting it takes
 *     back only what it contributed;
 *  3. a sender the recipient does not follow starts at most NOTIFY_STRANGER_LIMIT groups a day;
 *     reaction kinds come from REACTION_KINDS; what user input grows stays far below 400 KB;
 *  9b. DELETE /activities/{id} hides a blocker's activity from the blocked user (404) too.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterKey, reactionKey } from '../../functions/model/reaction.js';
import { notificationPartition } from '../../functions/model/notification.js';
import { ledgerPartition } from '../../functions/model/user-ledger.js';
import { forEachLimit } from '../../functions/platform/pool.js';
import { api, mustPost } from '../support/api.js';
import { uid } from '../support/ids.js';
import { groupsOf, groupsWhen, type NotificationGroup } from '../support/notifications.js';
import { doc, own, settled, sqs, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { itemSizeBytes, itemsMentioning } from '../support/settle.js';
import { eventually } from '../support/wait.js';

/** REACTION_KINDS at its bound: 50 kinds, the longest 32 characters. */
const KINDS = ['like', 'love', ...Array.from({ length: 48 }, (_, i) => `k${String(i).padStart(2, '0')}_${'x'.repeat(28)}`)];
/** Far below DynamoDB's 400 KB item limit: what any item grown by user input must stay under. */
const ITEM_BOUND = 16 * 1024;

beforeAll(async () => {
  await startOwnStack({
    persistent: false,
    sqsRetryDelaySeconds: 1,
    env: { CONTROL_SETTLE: '2s', NOTIFY_STRANGER_LIMIT: '3', NOTIFICATIONS_MAX_ITEMS: '4', REACTION_KINDS: KINDS.join(',') },
  });
}, 120_000);

afterAll(stopOwnStack);

const enc = encodeURIComponent;

describe('1. an erase keeps what others placed on the erased user', () => {
  it('their blocks and mutes stay (as an erased user, by hash only) and apply when the same sub comes back', async () => {
    const [alice, frank, mallory, watcher] = ['alice', 'frank', 'mallory', 'watcher'].map(uid) as [string, string, string, string];
    const a1 = await mustPost(alice, { verb: 'post', content: 'mine' }, own);
    expect((await api('PUT', `/blocks/${mallory}`, { on: own, as: alice })).status).toBe(204);
    expect((await api('PUT', `/mutes/${mallory}`, { on: own, as: frank })).status).toBe(204);
    expect((await api('PUT', `/following/${alice}`, { on: own, as: mallory })).status).toBe(403);
    await mustPost(mallory, { verb: 'post', content: 'something to erase' }, own);

    expect((await api('DELETE', '/me', { on: own, as: mallory })).status).toBe(202);
    await eventually(async () => (await api('GET', `/users/${mallory}`, { on: own, as: alice })).status === 404, {
      what: 'the erase to finish',
      timeoutMs: 60_000,
    });
    await settled('the erase', 30_000);
    expect(await itemsMentioning(doc, Object.values(stack.tableNames), mallory)).toEqual([]);
    // The owners still see their entries, as an erased user.
    expect((await api('GET', '/blocks', { on: own, as: alice })).body).toEqual({ items: [{ userId: null }], next: null });
    expect((await api('GET', '/mutes', { on: own, as: frank })).body).toEqual({ items: [{ userId: null }], next: null });

    // The same sub comes back: alice's block still stands…
    expect((await api('PUT', `/following/${alice}`, { on: own, as: mallory })).status).toBe(403);
    expect((await api('GET', `/users/${alice}/activities`, { on: own, as: mallory })).status).toBe(404);
    expect((await api('GET', `/activities/${enc(a1.id)}`, { on: own, as: mallory })).status).toBe(404);
    expect((await api('PUT', `/activities/${enc(a1.id)}/reactions/like`, { on: own, as: mallory })).status).toBe(403);
    expect((await api('POST', `/activities/${enc(a1.id)}/comments`, { on: own, as: mallory, json: { text: 'hi' } })).status).toBe(403);
    // …and neither alice (block) nor frank (mute) hears from her; the watcher does.
    await mustPost(mallory, { verb: 'post', content: `@${frank} @${alice} @${watcher} look` }, own);
    await groupsWhen(watcher, (g) => g.some((x) => x.kind === 'mention'), "the watcher's mention", { on: own, timeoutMs: 30_000 });
    await settled('the mentions', 30_000);
    expect(await groupsOf(frank, own)).toEqual([]);
    expect(await groupsOf(alice, own)).toEqual([]);

    // The owner can still lift it by the id, and then it no longer applies.
    expect((await api('DELETE', `/blocks/${mallory}`, { on: own, as: alice })).status).toBe(204);
    expect((await api('GET', '/blocks', { on: own, as: alice })).body).toEqual({ items: [], next: null });
    expect((await api('PUT', `/following/${alice}`, { on: own, as: mallory })).status).toBe(204);
  }, 120_000);
});

describe('2. notifications cannot be forged or used to erase', () => {
  it('a `to` naming a follow or a like is a group of its own; deleting it leaves the real ones as they were', async () => {
    const [alice, bob, carol, mallory] = ['alice', 'bob', 'carol', 'mallory'].map(uid) as [string, string, string, string];
    expect((await api('PUT', `/following/${alice}`, { on: own, as: bob })).status).toBe(204);
    const a1 = await mustPost(alice, { verb: 'post' }, own);
    expect((await api('PUT', `/activities/${enc(a1.id)}/reactions/like`, { on: own, as: carol })).status).toBe(204);
    const real = await groupsWhen(alice, (g) => g.length === 2, 'the follow and the like', { on: own, timeoutMs: 30_000 });
    expect(real.map((g) => [g.kind, g.verb, g.actors]).sort()).toEqual([
      ['follow', 'follow', [bob]],
      ['reaction', 'like', [carol]],
    ]);

    const [m1, m2] = await Promise.all([
      mustPost(mallory, { verb: 'follow', object: alice, to: [alice] }, own),
      mustPost(mallory, { verb: 'like', object: a1.id, to: [alice] }, own),
    ]);
    const all = await groupsWhen(alice, (g) => g.length === 4, "mallory's two addressed groups", { on: own, timeoutMs: 30_000 });
    const byKind = (kind: string) => all.filter((g) => g.kind === kind);
    expect(byKind('to').map((g) => [g.verb, g.actors, g.actorCount])).toEqual(
      expect.arrayContaining([
        ['follow', [mallory], 1],
        ['like', [mallory], 1],
      ]),
    );
    expect(byKind('follow')).toEqual([real.find((g) => g.kind === 'follow')]);
    expect(byKind('reaction')).toEqual([real.find((g) => g.kind === 'reaction')]);

    const deletes = await Promise.all([m1, m2].map((m) => api('DELETE', `/activities/${enc(m.id)}`, { on: own, as: mallory })));
    expect(deletes.map((r) => r.status)).toEqual([204, 204]);
    const after = await groupsWhen(alice, (g) => g.length === 2, "mallory's groups to go", { on: own, timeoutMs: 30_000 });
    expect(
      after
        .map(({ id, kind, actors, actorCount, activityCount }) => ({ id, kind, actors, actorCount, activityCount }))
        .sort((x, y) => x.kind.localeCompare(y.kind)),
    ).toEqual(
      real
        .map(({ id, kind, actors, actorCount, activityCount }) => ({ id, kind, actors, actorCount, activityCount }))
        .sort((x, y) => x.kind.localeCompare(y.kind)),
    );
    expect((await api('GET', '/notifications/counts', { on: own, as: alice })).body).toEqual({ unseen: 2, unread: 2 });
  }, 60_000);

  it('deleting a `to` post takes back only that post: its event, and its author once they have none left', async () => {
    const [alice, eve, mallory] = ['alice', 'eve', 'mallory'].map(uid) as [string, string, string];
    const invite = { verb: 'invite', object: 'game:1', to: [alice] };
    const [m1, m2] = await Promise.all([mustPost(mallory, invite, own), mustPost(mallory, invite, own), mustPost(eve, invite, own)]);
    const one = (g: NotificationGroup[]) => (g.length === 1 ? g[0]! : undefined);
    await groupsWhen(alice, (g) => one(g)?.activityCount === 3, 'three invites in one group', { on: own, timeoutMs: 30_000 });
    expect(one(await groupsOf(alice, own))).toMatchObject({ kind: 'to', verb: 'invite', object: 'game:1', actorCount: 2 });

    expect((await api('DELETE', `/activities/${enc(m1.id)}`, { on: own, as: mallory })).status).toBe(204);
    const g1 = one(await groupsWhen(alice, (g) => one(g)?.activityCount === 2, 'one invite taken back', { on: own, timeoutMs: 30_000 }))!;
    expect([g1.actorCount, [...g1.actors].sort()]).toEqual([2, [eve, mallory].sort()]);

    expect((await api('DELETE', `/activities/${enc(m2.id)}`, { on: own, as: mallory })).status).toBe(204);
    const g2 = one(await groupsWhen(alice, (g) => one(g)?.activityCount === 1, "mallory's last invite taken back", { on: own, timeoutMs: 30_000 }))!;
    expect(g2).toMatchObject({ actors: [eve], actorCount: 1, activityCount: 1 });
  }, 60_000);
});

describe('3. strangers are bounded', () => {
  it('a sender the recipient does not follow starts at most NOTIFY_STRANGER_LIMIT groups a day; their posts still succeed', async () => {
    const [alice, bob, mallory, watcher] = ['alice', 'bob', 'mallory', 'watcher'].map(uid) as [string, string, string, string];
    expect((await api('PUT', `/following/${alice}`, { on: own, as: bob })).status).toBe(204);
    await groupsWhen(alice, (g) => g.length === 1, "bob's follow", { on: own, timeoutMs: 30_000 });
    expect((await api('PUT', `/following/${mallory}`, { on: own, as: watcher })).status).toBe(204);
    await Promise.all(Array.from({ length: 5 }, (_, i) => mustPost(mallory, { verb: 'invite', object: `game:${i}`, to: [alice] }, own)));
    // Her last post reaches the watcher (he follows her): once it has, and no job is left, all ran.
    await mustPost(mallory, { verb: 'invite', object: 'game:last', to: [watcher] }, own);
    await groupsWhen(watcher, (g) => g.length === 1, "the watcher's invite", { on: own, timeoutMs: 30_000 });
    await settled("mallory's posts", 30_000);
    const groups = await groupsOf(alice, own);
    expect(groups.filter((g) => g.actors.includes(mallory))).toHaveLength(3);
    expect(groups.filter((g) => g.kind === 'follow').map((g) => g.actors)).toEqual([[bob]]); // not trimmed away
  }, 60_000);

  it('a sender the recipient follows is not bounded', async () => {
    const [dave, carol] = ['dave', 'carol'].map(uid) as [string, string];
    expect((await api('PUT', `/following/${carol}`, { on: own, as: dave })).status).toBe(204);
    await Promise.all(Array.from({ length: 4 }, (_, i) => mustPost(carol, { verb: 'invite', object: `game:${i}`, to: [dave] }, own)));
    await groupsWhen(dave, (g) => g.length === 4, "carol's four invites", { on: own, timeoutMs: 30_000 });
  }, 60_000);

  it('reaction kinds come from REACTION_KINDS: another kind is a 400 that changes nothing', async () => {
    const [alice, bob] = ['alice', 'bob'].map(uid) as [string, string];
    const a1 = await mustPost(alice, { verb: 'post' }, own);
    const res = await api('PUT', `/activities/${enc(a1.id)}/reactions/zzz`, { on: own, as: bob });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/REACTION_KINDS|not one of/);
    expect((await api('PUT', `/activities/${enc(a1.id)}/reactions/love`, { on: own, as: bob })).status).toBe(204);
    expect((await api('GET', `/activities/${enc(a1.id)}`, { on: own, as: bob })).body.reactions).toEqual({ counts: { love: 1 }, own: ['love'] });
  });

  it('what user input grows stays far below 400 KB at its bound: counters, reaction sets, ledger entries', async () => {
    const [alice, bob] = ['alice', 'bob'].map(uid) as [string, string];
    const a1 = await mustPost(alice, { verb: 'post' }, own);
    // Four at a time: one user's reactions on one activity meet on its counter and reaction set, which retry a lost race.
    await forEachLimit(KINDS, 4, async (kind) =>
      expect((await api('PUT', `/activities/${enc(a1.id)}/reactions/${kind}`, { on: own, as: bob })).status, kind).toBe(204),
    );
    const summary = (await api('GET', `/activities/${enc(a1.id)}`, { on: own, as: bob })).body.reactions;
    expect(Object.keys(summary.counts)).toHaveLength(KINDS.length);
    const counter = (await doc.send(new GetCommand({ TableName: stack.tableNames.feed, Key: counterKey(a1.id), ConsistentRead: true }))).Item!;
    const reaction = (await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: reactionKey(a1.id, bob), ConsistentRead: true }))).Item!;
    const ledger = (
      await doc.send(
        new QueryCommand({ TableName: stack.tableNames.graph, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': ledgerPartition(bob) } }),
      )
    ).Items!;
    expect(ledger).toHaveLength(1);
    for (const item of [counter, reaction, ledger[0]!]) expect(itemSizeBytes(item)).toBeLessThan(ITEM_BOUND);
  }, 60_000);

  it('notification items stay far below 400 KB at their bound: one actor’s events in a group are capped, actors listed are 5', async () => {
    const recipient = uid('recipient');
    const longId = (c: string) => c.repeat(256); // 256 characters of 3 bytes each
    const flooder = longId('中');
    const object = 'o'.repeat(2048);
    const ticks = () => (BigInt(Date.now()) * 1_000_000n).toString();
    const send = (events: object[]) =>
      sqs.send(new SendMessageCommand({ QueueUrl: stack.queueUrls.notify, MessageBody: JSON.stringify({ kind: 'notify', recipient, events }) }));
    // 120 events of one actor into one group, in jobs of 20 (the most a job carries).
    for (let job = 0; job < 6; job++) {
      await send(
        Array.from({ length: 20 }, (_, i) => ({
          kind: 'reaction',
          verb: 'like',
          object,
          actor: flooder,
          id: `e${job}-${i}-${'i'.repeat(1000)}`,
          ticks: ticks(),
        })),
      );
    }
    await groupsWhen(recipient, (g) => g[0]?.activityCount === 100, 'the actor capped at 100 events', { on: own, timeoutMs: 30_000 });
    const others = ['あ', 'い', 'う', 'え', 'お', 'か'].map(longId);
    await send(others.map((actor, i) => ({ kind: 'reaction', verb: 'like', object, actor, id: `o${i}`, ticks: ticks() })));
    const [group] = await groupsWhen(recipient, (g) => g[0]?.actorCount === 7, 'six more actors', { on: own, timeoutMs: 30_000 });
    await settled('the notify jobs', 30_000);
    expect(group).toMatchObject({ activityCount: 106, actorCount: 7 });
    expect(group!.actors).toHaveLength(5);
    const items = (
      await doc.send(
        new QueryCommand({
          TableName: stack.tableNames.graph,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': notificationPartition(recipient) },
          ConsistentRead: true,
        }),
      )
    ).Items!;
    for (const item of items) expect(itemSizeBytes(item), String(item.sk)).toBeLessThan(ITEM_BOUND);
  }, 60_000);
});

describe('9b. a blocked user is told an activity does not exist', () => {
  it('DELETE /activities/{id} of a blocker’s activity answers 404 to the blocked user (403 to others)', async () => {
    const [alice, mallory, carol] = ['alice', 'mallory', 'carol'].map(uid) as [string, string, string];
    const a1 = await mustPost(alice, { verb: 'post' }, own);
    expect((await api('PUT', `/blocks/${mallory}`, { on: own, as: alice })).status).toBe(204);
    const blocked = await api('DELETE', `/activities/${enc(a1.id)}`, { on: own, as: mallory });
    expect(blocked.status).toBe(404);
    expect((await api('GET', `/activities/${enc(a1.id)}`, { on: own, as: mallory })).status).toBe(404);
    expect((await api('DELETE', `/activities/${enc(a1.id)}`, { on: own, as: carol })).status).toBe(403);
    expect((await api('GET', `/activities/${enc(a1.id)}`, { on: own, as: alice })).status).toBe(200);
  });
});
