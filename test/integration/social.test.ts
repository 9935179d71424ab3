/**
 * Reactions, comments, notifications, aggregated and verb-filtered reads on the shared local stack
 * (real DynamoDB Local, the SQS server, the stream pollers and the fan-out worker).
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Activity } from '../../functions/model/activity.js';
import { commentPartition } from '../../functions/model/comment.js';
import { groupIdOf, notificationPartition, STRANGER_QUOTA_PREFIX } from '../../functions/model/notification.js';
import type { NotificationPage } from '../../functions/services/notifications/read-notifications.js';
import { reactionPartition } from '../../functions/model/reaction.js';
import { api, type ApiResponse, mustPost, token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, sqs, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';

const react = (user: string, id: string, kind = 'like') => api('PUT', `/activities/${encodeURIComponent(id)}/reactions/${kind}`, { as: user });
const unreact = (user: string, id: string, kind = 'like') => api('DELETE', `/activities/${encodeURIComponent(id)}/reactions/${kind}`, { as: user });
const notifications = async (user: string, query = '') => (await api('GET', `/notifications${query}`, { as: user })).body as NotificationPage;
const counts = async (user: string) => (await api('GET', '/notifications/counts', { as: user })).body as { unseen: number; unread: number };

/** Wait until `user`'s notifications satisfy `ok`, then return them. */
const notificationsWhen = (user: string, ok: (p: NotificationPage) => boolean, timeoutMs = 30_000) =>
  eventually(
    async () => {
      const page = await notifications(user, '?limit=100');
      return ok(page) ? page : undefined;
    },
    { timeoutMs },
  );

async function partitionSize(table: string, pk: string): Promise<number> {
  const { Count } = await doc.send(
    new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Select: 'COUNT' }),
  );
  return Count ?? 0;
}

async function newPost(author: string, body: Record<string, unknown> = {}) {
  return mustPost(author, { verb: 'post', content: 'hello', ...body });
}

describe('reactions', () => {
  it('PUT is idempotent, DELETE decrements, GET /activities/{id} carries counts and the caller’s own kinds', async () => {
    const alice = uid('alice');
    const bob = uid('bob');
    const p = await newPost(alice);
    expect((await react(bob, p.id)).status).toBe(204);
    expect((await react(bob, p.id)).status).toBe(204); // a repeat changes nothing
    expect((await react(bob, p.id, 'love')).status).toBe(204);
    const asBob = await api('GET', `/activities/${p.id}`, { as: bob });
    expect(asBob.body.reactions).toEqual({ counts: { like: 1, love: 1 }, own: ['like', 'love'] });
    expect((await api('GET', `/activities/${p.id}`, { as: alice })).body.reactions).toEqual({ counts: { like: 1, love: 1 }, own: [] });
    expect((await unreact(bob, p.id)).status).toBe(204);
    expect((await unreact(bob, p.id)).status).toBe(204); // removing what is not there: no change
    expect((await api('GET', `/activities/${p.id}`, { as: bob })).body.reactions).toEqual({ counts: { love: 1 }, own: ['love'] });
  });

  it('refuses unknown activities (404) and bad kinds (400), changing nothing', async () => {
    const alice = uid('alice');
    const p = await newPost(alice);
    expect((await react(alice, `${p.id}x`)).status).toBe(404);
    for (const kind of ['Like', 'a-b', 'x'.repeat(33), 'comment%20']) {
      const res = await react(alice, p.id, kind);
      expect(res.status, kind).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
    expect((await api('GET', `/activities/${p.id}`, { as: alice })).body.reactions).toEqual({ counts: {}, own: [] });
    await api('DELETE', `/activities/${p.id}`, { as: alice });
    expect((await react(alice, p.id)).status).toBe(404); // deleted
  });

  it('50 users liking one activity at once count 50, and notify its author once per liker, in one group', async () => {
    const alice = uid('alice');
    const p = await newPost(alice);
    const likers = Array.from({ length: 50 }, (_, i) => uid(`liker${i}`));
    const statuses = await Promise.all(likers.map((u) => react(u, p.id).then((r) => r.status)));
    expect(statuses.every((s) => s === 204)).toBe(true);
    expect((await api('GET', `/activities/${p.id}`, { as: alice })).body.reactions.counts).toEqual({ like: 50 });
    const page = await notificationsWhen(alice, (n) => n.items.some((g) => g.verb === 'like' && g.activityCount === 50));
    const likes = page.items.filter((g) => g.verb === 'like');
    expect(likes).toHaveLength(1);
    expect(likes[0]).toMatchObject({ object: p.id, actorCount: 50, activityCount: 50, seen: false, read: false });
    expect(likes[0]!.actors).toHaveLength(5);
    expect(page.unseen).toBe(1);
  });
});

describe('notification groups are history, counted exactly once', () => {
  it('like/unlike/like by one user is one actor and two activities; a removed reaction leaves the group', async () => {
    const alice = uid('alice');
    const bob = uid('bob');
    const p = await newPost(alice);
    await react(bob, p.id);
    await notificationsWhen(alice, (n) => n.items.length === 1);
    await unreact(bob, p.id);
    await react(bob, p.id);
    const page = await notificationsWhen(alice, (n) => n.items[0]?.activityCount === 2);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ actorCount: 1, actors: [bob], activityCount: 2 });
    expect((await api('GET', `/activities/${p.id}`, { as: alice })).body.reactions.counts).toEqual({ like: 1 });
  });

  it('a redelivered notify job changes nothing; new events in the same job still land', async () => {
    const alice = uid('alice');
    const event = (actor: string, id: string) => ({ verb: 'like', object: 'thing:1', actor, id, ticks: (BigInt(Date.now()) * 1_000_000n).toString() });
    const job = { kind: 'notify', recipient: alice, events: [event('bob', 'e-bob'), event('carol', 'e-carol')] };
    const send = (body: unknown) => sqs.send(new SendMessageCommand({ QueueUrl: stack.queueUrls.notify, MessageBody: JSON.stringify(body) }));
    await send(job);
    await notificationsWhen(alice, (n) => n.items[0]?.activityCount === 2);
    await Promise.all([send(job), send(job), send(job)]); // three redeliveries, concurrently
    await send({ ...job, events: [...job.events, event('dave', 'e-dave')] });
    const page = await notificationsWhen(alice, (n) => n.items[0]?.activityCount === 3);
    // Wait for the worker to drain the duplicates too, then look again. Bounded: a redelivery writes
    // nothing and the worker folds a recipient's jobs, so no effect counts them done, and the shared stack's queue is not ours to drain.
    await new Promise((r) => setTimeout(r, 1500));
    const again = await notifications(alice);
    expect(again.items).toEqual(page.items);
    expect(again.items[0]).toMatchObject({ actorCount: 3, activityCount: 3 });
    expect(again.items[0]!.actors[0]).toBe('dave'); // the newest event's actor first
    expect([...again.items[0]!.actors].sort()).toEqual(['bob', 'carol', 'dave']);
    expect(again.unseen).toBe(1);
  });

  it('groups by verb + object + UTC day: events of two days make two groups, newest first', async () => {
    const alice = uid('alice');
    const dayMs = 86_400_000;
    const at = (msAgo: number) => (BigInt(Date.now() - msAgo) * 1_000_000n).toString();
    const events = [
      { verb: 'like', object: 'p:1', actor: 'bob', id: 'd1', ticks: at(dayMs) },
      { verb: 'like', object: 'p:1', actor: 'carol', id: 'd2', ticks: at(dayMs + 60_000) },
      { verb: 'like', object: 'p:1', actor: 'dave', id: 'd0', ticks: at(0) },
      { verb: 'love', object: 'p:1', actor: 'dave', id: 'd3', ticks: at(1000) },
    ];
    await sqs.send(new SendMessageCommand({ QueueUrl: stack.queueUrls.notify, MessageBody: JSON.stringify({ kind: 'notify', recipient: alice, events }) }));
    // A page's Query and its head GetItem run in parallel: wait until both see the last job's transaction.
    const page = await notificationsWhen(alice, (n) => n.items.length === 3 && n.unseen === 3);
    expect(page.items.map((g) => [g.verb, g.activityCount])).toEqual([
      ['like', 1],
      ['love', 1],
      ['like', 2],
    ]);
    const today = new Date().toISOString().slice(0, 10);
    expect(page.items[0]!.id).toBe(groupIdOf('like', 'p:1', today));
    expect(page.unseen).toBe(3);
    // Paging: one at a time reaches all three, then stops.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p: NotificationPage = await notifications(alice, `?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...p.items.map((g) => g.id));
      cursor = p.next;
    } while (cursor);
    expect(seen).toEqual(page.items.map((g) => g.id));
  });
});

describe('what notifies whom', () => {
  it('follow, comment, mention and `to` notify; acting on your own things notifies no one', async () => {
    const alice = uid('alice');
    const bob = uid('bob');
    const carol = uid('carol');
    expect((await api('PUT', `/following/${alice}`, { as: bob })).status).toBe(204);
    const p = await newPost(alice, { content: `hi @${carol} and @${alice}`, to: [bob, alice], verb: 'invite', object: 'game:7' });
    await api('POST', `/activities/${p.id}/comments`, { as: bob, json: { text: 'nice' } });
    // Self-actions: alice likes and comments on her own post, mentions and targets herself.
    await react(alice, p.id);
    await api('POST', `/activities/${p.id}/comments`, { as: alice, json: { text: 'thanks' } });

    const forAlice = await notificationsWhen(alice, (n) => n.items.length >= 2);
    expect(forAlice.items.map((g) => `${g.verb}:${g.object}:${g.actors.join()}`).sort()).toEqual([`comment:${p.id}:${bob}`, `follow:${alice}:${bob}`].sort());
    const forCarol = await notificationsWhen(carol, (n) => n.items.length === 1);
    expect(forCarol.items[0]).toMatchObject({ verb: 'mention', object: p.id, actors: [alice] });
    const forBob = await notificationsWhen(bob, (n) => n.items.length === 1);
    expect(forBob.items[0]).toMatchObject({ verb: 'invite', object: 'game:7', actors: [alice] });
    // Nothing more arrives for alice from her own actions. Bounded: a notify job carries one recipient's
    // events and all of alice's here would be her own, so no same-job sentinel exists, and the shared stack's queues are not ours to drain.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await notifications(alice)).items).toHaveLength(2);
  });

  it('refuses a `to` of more than 20 users or with a bad user id (400, nothing posted)', async () => {
    const alice = uid('alice');
    expect((await api<Activity>('POST', '/activities', { as: alice, json: { verb: 'x', to: Array.from({ length: 21 }, (_, i) => `u${i}`) } })).status).toBe(
      400,
    );
    expect((await api<Activity>('POST', '/activities', { as: alice, json: { verb: 'x', to: ['ok', 'bad\u0001id'] } })).status).toBe(400);
    expect((await api<{ items: Activity[] }>('GET', `/users/${alice}/activities`, { as: alice })).body.items).toEqual([]);
  });
});

describe('unseen and unread', () => {
  it('counts groups; marking by id or all; a seen group that grows is unseen again', async () => {
    const alice = uid('alice');
    const [p1, p2] = [await newPost(alice), await newPost(alice)];
    await react('bob', p1.id);
    await react('bob', p2.id);
    const page = await notificationsWhen(alice, (n) => n.items.length === 2);
    expect(await counts(alice)).toEqual({ unseen: 2, unread: 2 });
    const g1 = page.items.find((g) => g.object === p1.id)!;
    expect((await api('POST', '/notifications/seen', { as: alice, json: { ids: [g1.id, 'not-a-group'] } })).status).toBe(400); // malformed: nothing marked
    expect(await counts(alice)).toEqual({ unseen: 2, unread: 2 });
    const unknown = groupIdOf('like', 'nothing', '2026-01-01');
    expect((await api('POST', '/notifications/seen', { as: alice, json: { ids: [g1.id, unknown] } })).status).toBe(204);
    expect(await counts(alice)).toEqual({ unseen: 1, unread: 2 });
    expect((await api('POST', '/notifications/seen', { as: alice, json: { ids: [g1.id] } })).status).toBe(204); // again: no change
    expect(await counts(alice)).toEqual({ unseen: 1, unread: 2 });
    expect((await api('POST', '/notifications/read', { token: await token(alice) })).status).toBe(204); // empty body: all
    expect(await counts(alice)).toEqual({ unseen: 0, unread: 0 });
    expect((await notifications(alice)).items.every((g) => g.seen && g.read)).toBe(true);
    await react('carol', p1.id);
    await eventually(async () => (await counts(alice)).unseen === 1);
    expect(await counts(alice)).toEqual({ unseen: 1, unread: 1 });
    const grown = (await notifications(alice)).items[0]!;
    expect(grown).toMatchObject({ object: p1.id, actorCount: 2, seen: false, read: false });
  });

  it('only the caller’s own groups are marked', async () => {
    const alice = uid('alice');
    const p = await newPost(alice);
    await react('bob', p.id);
    const [g] = (await notificationsWhen(alice, (n) => n.items.length === 1)).items;
    await api('POST', '/notifications/read', { as: uid('mallory'), json: { ids: [g!.id] } });
    expect(await counts(alice)).toEqual({ unseen: 1, unread: 1 });
  });
});

describe('comments', () => {
  it('posts, pages newest first, counts, and lets the comment’s or the activity’s author delete', async () => {
    const alice = uid('alice');
    const bob = uid('bob');
    const carol = uid('carol');
    const p = await newPost(alice);
    const posted: { id: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api('POST', `/activities/${p.id}/comments`, { as: i % 2 ? carol : bob, json: { text: `c${i}` } });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['actor', 'id', 'text', 'time']);
      posted.push(res.body);
    }
    const texts: string[] = [];
    let cursor: string | null = null;
    do {
      const res: ApiResponse = await api('GET', `/activities/${p.id}/comments?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { as: bob });
      texts.push(...res.body.items.map((c: { text: string }) => c.text));
      cursor = res.body.next;
    } while (cursor);
    expect(texts).toEqual(['c4', 'c3', 'c2', 'c1', 'c0']);
    expect((await api('GET', `/activities/${p.id}`, { as: alice })).body.reactions.counts).toEqual({ comment: 5 });

    const del = (user: string, c: { id: string }) => api('DELETE', `/activities/${p.id}/comments/${c.id}`, { as: user });
    expect((await del(carol, posted[0]!)).status).toBe(403); // bob's comment, carol is neither author
    expect((await del(bob, posted[0]!)).status).toBe(204);
    expect((await del(alice, posted[1]!)).status).toBe(204); // the activity's author
    expect((await del(bob, posted[0]!)).status).toBe(404);
    expect((await api('GET', `/activities/${p.id}`, { as: alice })).body.reactions.counts).toEqual({ comment: 3 });
  });

  it('refuses empty and over-long text (400) and unknown activities (404)', async () => {
    const alice = uid('alice');
    const p = await newPost(alice);
    for (const text of ['', 'x'.repeat(2001)]) expect((await api('POST', `/activities/${p.id}/comments`, { as: alice, json: { text } })).status).toBe(400);
    expect((await api('POST', `/activities/${p.id}/comments`, { as: alice, json: { text: 'x'.repeat(2000) } })).status).toBe(201);
    expect((await api('POST', `/activities/${p.id}1/comments`, { as: alice, json: { text: 'x' } })).status).toBe(404);
    expect((await api('GET', `/activities/${p.id}1/comments`, { as: alice })).status).toBe(404);
  });
});

describe('deleting an activity', () => {
  it('removes its reactions and comments and hides it from notifications, counts following', async () => {
    const alice = uid('alice');
    const carol = uid('carol');
    const p = await newPost(alice, { content: `@${carol} look`, to: ['dave-' + alice] });
    const keep = await newPost(alice);
    await react('bob', p.id);
    await react('bob', keep.id);
    await api('POST', `/activities/${p.id}/comments`, { as: 'bob', json: { text: 'hi' } });
    await notificationsWhen(alice, (n) => n.items.length === 3);
    await notificationsWhen(carol, (n) => n.items.length === 1);
    await notificationsWhen('dave-' + alice, (n) => n.items.length === 1);
    expect((await api('DELETE', `/activities/${p.id}`, { as: alice })).status).toBe(204);

    const left = await notificationsWhen(alice, (n) => n.items.length === 1);
    expect(left.items[0]!.object).toBe(keep.id);
    expect(left.unseen).toBe(1);
    await notificationsWhen(carol, (n) => n.items.length === 0 && n.unseen === 0);
    await notificationsWhen('dave-' + alice, (n) => n.items.length === 0 && n.unseen === 0);
    await eventually(async () => (await partitionSize(stack.tableNames.graph, reactionPartition(p.id))) === 0);
    expect(await partitionSize(stack.tableNames.feed, commentPartition(p.id))).toBe(0);
    expect(await partitionSize(stack.tableNames.graph, reactionPartition(keep.id))).toBe(1);
    // No group, order item or claim is left: the head, and alice's count of groups she started as a stranger to carol (q#), only.
    const { Items: carolItems = [] } = await doc.send(
      new QueryCommand({
        TableName: stack.tableNames.graph,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': notificationPartition(carol) },
      }),
    );
    expect(carolItems.map((i) => String(i.sk)).filter((sk) => sk !== 'head' && !sk.startsWith(STRANGER_QUOTA_PREFIX))).toEqual([]);
  });
});

describe('reads', () => {
  it('?verbs= filters the home feed and a timeline', async () => {
    const alice = uid('alice');
    const made: Awaited<ReturnType<typeof mustPost>>[] = [];
    for (const verb of ['run', 'swim', 'run', 'bike', 'run', 'swim']) made.push(await mustPost(alice, { verb }));
    const ids = (verbs: string[]) =>
      made
        .filter((a) => verbs.includes(a.verb))
        .map((a) => a.id)
        .reverse();
    const timeline = await api<{ items: Activity[] }>('GET', `/users/${alice}/activities`, { as: alice, query: { verbs: 'run,bike' } });
    expect(timeline.body.items.map((a) => a.id)).toEqual(ids(['run', 'bike']));
    const feed = await eventually(async () => {
      const page = await api<{ items: Activity[] }>('GET', '/feed', { as: alice, query: { verbs: 'swim' } });
      return page.body.items.length === 2 ? page : undefined;
    });
    expect(feed.body.items.map((a) => a.id)).toEqual(ids(['swim']));
    // Paging a filtered feed one at a time reaches every match.
    const paged: string[] = [];
    let before: string | null = null;
    do {
      const page: ApiResponse<{ items: Activity[]; lastRangeKey: string | null }> = await api('GET', `/users/${alice}/activities`, {
        as: alice,
        query: { verbs: 'run', limit: 1, ...(before ? { before } : {}) },
      });
      paged.push(...page.body.items.map((a) => a.id));
      before = page.body.lastRangeKey;
    } while (before);
    expect(paged).toEqual(ids(['run']));
    expect((await api<{ items: Activity[] }>('GET', '/feed', { as: alice, query: { verbs: 'Bad Verb' } })).status).toBe(400);
  });

  it('?enrich=reactions adds reactions to feed and timeline items; without it they carry none', async () => {
    const alice = uid('alice');
    const p = await newPost(alice);
    await react('bob', p.id);
    await react(alice, p.id, 'love');
    const plain = await api<{ items: Activity[] }>('GET', `/users/${alice}/activities`, { as: alice });
    expect(plain.body.items[0]).not.toHaveProperty('reactions');
    const rich = await api<{ items: Activity[] }>('GET', `/users/${alice}/activities`, { as: alice, query: { enrich: 'reactions' } });
    expect((rich.body.items[0] as unknown as { reactions: unknown }).reactions).toEqual({ counts: { like: 1, love: 1 }, own: ['love'] });
    const feed = await eventually(async () => {
      const page = await api<{ items: Activity[] }>('GET', '/feed', { as: alice, query: { enrich: 'reactions' } });
      return page.body.items.length === 1 ? page : undefined;
    });
    expect((feed.body.items[0] as unknown as { reactions: unknown }).reactions).toEqual({ counts: { like: 1, love: 1 }, own: ['love'] });
    expect((await api<{ items: Activity[] }>('GET', '/feed', { as: alice, query: { enrich: 'everything' } })).status).toBe(400);
  });

  it('GET /feed/aggregated folds consecutive same actor + verb + day and pages by the oldest member', async () => {
    const alice = uid('alice');
    const verbs = ['like', 'like', 'like', 'post', 'like', 'like'];
    const made: Awaited<ReturnType<typeof mustPost>>[] = [];
    for (const verb of verbs) made.push(await mustPost(alice, { verb }));
    // Newest first: like×2, post, like×3
    const page = await eventually(async () => {
      const res = await api('GET', '/feed/aggregated?limit=2', { as: alice });
      return res.body.items?.length === 2 && res.body.items[0].activityCount === 2 ? res : undefined;
    });
    expect(page.body.items.map((g: { verb: string; activityCount: number }) => [g.verb, g.activityCount])).toEqual([
      ['like', 2],
      ['post', 1],
    ]);
    expect(page.body.items[0].activities.map((a: { id: string }) => a.id)).toEqual([made[5]!.id, made[4]!.id]);
    expect(page.body.lastRangeKey).toBe(made[3]!.rangeKey);
    const next = await api('GET', `/feed/aggregated?limit=2&before=${page.body.lastRangeKey}`, { as: alice });
    expect(next.body.items.map((g: { verb: string; activityCount: number }) => [g.verb, g.activityCount])).toEqual([['like', 3]]);
    const [older] = next.body.items as { actor: string; from: string; to: string }[];
    expect(older!.actor).toBe(alice);
    expect(older!.from < older!.to).toBe(true); // the oldest member's posting time, then the newest's
    expect(next.body.lastRangeKey).toBeNull();
  });
});
