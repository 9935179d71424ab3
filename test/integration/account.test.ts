/**
 * Export and erase, on a stack of its own (CONTROL_SETTLE = 2 s: an unfollow's gone edge is gone,
 * and an erase's feed phase starts, within seconds; not 1 s, its least: carol unfollows right after
 * alice's posts, and a fan-out page that read her in the follower list must have written before the
 * settle cleanup looks, or a stray copy of alice's post stays in carol's feed). alice has posts,
 * follows both ways (one ex-follower), reactions and comments both ways, notifications to and
 * from her, mutes and blocks both ways and a foreignId:
 *  - GET /me/export holds every one of them;
 *  - after DELETE /me and its job, a scan of every item of every table finds her id nowhere (keys
 *    or attribute values, sets and lists included), the others' counts are exact again, and
 *    GET /users/alice answers 404; a repeated DELETE is harmless.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followEdgeKey } from '../../functions/model/follow-edge.js';
import { ADMIN, api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, own, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';
import { itemsMentioning } from '../support/settle.js';
import { eventually } from '../support/wait.js';

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { CONTROL_SETTLE: '2s', ROLLUPS: 'post:sum(score)' } });
}, 120_000);

afterAll(stopOwnStack);

const [alice, bob, carol, dave, eve, frank, gina] = ['alice', 'bob', 'carol', 'dave', 'eve', 'frank', 'gina'].map((n) => uid(n)) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];

/** Every item of this stack's tables that mentions `needle` anywhere. */
const itemsHolding = (needle: string) => itemsMentioning(doc, Object.values(stack.tableNames), needle);

const edgeExists = async (follower: string, followee: string) =>
  (await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: followEdgeKey(follower, followee), ConsistentRead: true }))).Item !== undefined;

let a1: { id: string }, a2: { id: string }, c1: { id: string };

describe('export', () => {
  it('holds every kind of thing tickfeed keeps about the caller', async () => {
    // Requests that do not depend on each other go at once; the follows come before the posts (so
    // the posts fan out to them), alice's two posts one after the other (the export lists them newest first).
    const statuses = async (...requests: Promise<{ status: number }>[]) => (await Promise.all(requests)).map((r) => r.status);
    expect(
      await statuses(
        api('PUT', `/following/${alice}`, { on: own, as: bob }),
        api('PUT', `/following/${carol}`, { on: own, as: alice }),
        api('PUT', `/following/${alice}`, { on: own, as: carol }),
      ),
    ).toEqual([204, 204, 204]);
    [a1, c1] = (
      await Promise.all([
        api('POST', '/activities', {
          on: own,
          as: alice,
          json: { verb: 'post', content: `hello @${bob}`, to: [carol], attributes: { score: 3 }, foreignId: 'f-1' },
        }),
        api('POST', '/activities', { on: own, as: carol, json: { verb: 'post', content: 'carol here' } }),
      ])
    ).map((r) => r.body);
    a2 = (await api('POST', '/activities', { on: own, as: alice, json: { verb: 'post', content: 'second' } })).body;
    expect(
      await statuses(
        api('DELETE', `/following/${alice}`, { on: own, as: carol }), // an ex-follower
        api('PUT', `/activities/${encodeURIComponent(a1.id)}/reactions/like`, { on: own, as: bob }),
        api('POST', `/activities/${encodeURIComponent(a1.id)}/comments`, { on: own, as: bob, json: { text: 'nice one' } }),
        api('PUT', `/activities/${encodeURIComponent(c1.id)}/reactions/love`, { on: own, as: alice }),
        api('POST', `/activities/${encodeURIComponent(c1.id)}/comments`, { on: own, as: alice, json: { text: `reply from ${alice}` } }),
      ),
    ).toEqual([204, 204, 201, 204, 201]);
    // A ranked feed of her own, and a mark (less of carol): hers, so the erase takes them.
    const feedId = `hers-${Date.now()}`;
    expect((await api('PUT', `/feeds/${feedId}`, { on: own, as: alice, json: { sources: [{ type: 'following' }], expression: 'popularity' } })).status).toBe(
      200,
    );
    const marked = await api('POST', `/feeds/${feedId}/interactions`, { on: own, as: alice, json: { items: [{ activityId: c1.id, event: 'less' }] } });
    expect(marked.status, marked.text).toBe(204);
    // Traces whose pointers are gone before the erase: a comment she deleted (its notification
    // stays, as history) and a follow she undid (dave's follow notification stays).
    const gone = (await api('POST', `/activities/${encodeURIComponent(c1.id)}/comments`, { on: own, as: alice, json: { text: 'regret' } })).body;
    expect((await api('PUT', `/following/${dave}`, { on: own, as: alice })).status).toBe(204);
    await eventually(async () => (await api('GET', '/notifications', { on: own, as: dave })).body.items.length === 1, {
      what: "dave's follow notification",
      timeoutMs: 60_000,
    });
    expect((await api('DELETE', `/activities/${encodeURIComponent(c1.id)}/comments/${gone.id}`, { on: own, as: alice })).status).toBe(204);
    expect((await api('DELETE', `/following/${dave}`, { on: own, as: alice })).status).toBe(204);
    const controls = [
      [alice, `/mutes/${dave}`],
      [alice, `/blocks/${eve}`],
      [frank, `/mutes/${alice}`],
      [gina, `/blocks/${alice}`],
    ] as const;
    expect(await statuses(...controls.map(([who, path]) => api('PUT', path, { on: own, as: who })))).toEqual([204, 204, 204, 204]);
    // Waited for together: each is a condition of its own.
    await Promise.all([
      eventually(async () => (await api('GET', '/notifications', { on: own, as: alice })).body.items.length === 3, {
        what: "alice's notifications (follow, like, comment)",
        timeoutMs: 60_000,
      }),
      eventually(async () => (await api('GET', '/notifications', { on: own, as: carol })).body.items.length === 4, {
        what: "carol's (follow, to, love, comment)",
        timeoutMs: 60_000,
      }),
      eventually(async () => (await api('GET', '/feed', { on: own, as: bob })).body.items.length === 2, {
        what: "alice's posts in bob's feed",
        timeoutMs: 60_000,
      }),
      // Activity windows are written once per tumbling window of the stream (1 s on this stack).
      eventually(async () => (await api('GET', `/users/${alice}/activity`, { on: own, as: alice })).body.total >= 2, {
        what: "alice's activity window",
        timeoutMs: 60_000,
      }),
    ]);

    const parts: (Record<string, unknown> & { next: string | null })[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: Record<string, unknown> & { next: string | null } } = await api(
        'GET',
        `/me/export${cursor ? `?cursor=${cursor}` : ''}`,
        { on: own, as: alice },
      );
      expect(res.status).toBe(200);
      parts.push(res.body);
      cursor = res.body.next;
    } while (cursor);
    const all = (key: string) => parts.flatMap((p) => (p[key] as unknown[]) ?? []);
    const first = parts[0]!;
    expect(first.userId).toBe(alice);
    expect(first.profile).toEqual({ followers: 1, following: 1 });
    expect((first.activityWindow as { total: number }).total).toBeGreaterThanOrEqual(2);
    expect(all('activities').map((a) => (a as { id: string }).id)).toEqual([a2.id, a1.id]);
    expect(all('following')).toEqual([{ userId: carol }]);
    expect(all('followers')).toEqual([{ userId: bob }]);
    expect(all('reactions')).toEqual([{ activityId: c1.id, kinds: ['love'] }]);
    expect(all('comments')).toEqual([expect.objectContaining({ activityId: c1.id, actor: alice, text: `reply from ${alice}` })]);
    expect(
      all('notifications')
        .map((g) => (g as { verb: string }).verb)
        .sort(),
    ).toEqual(['comment', 'follow', 'like']);
    expect(all('mutes')).toEqual([{ userId: dave }]);
    expect(all('blocks')).toEqual([{ userId: eve }]);
    expect((await api('GET', '/me/export?cursor=bogus', { on: own, as: alice })).status).toBe(400);
  }, 60_000);
});

describe('erase', () => {
  // The two erases run side by side: the admin's is of a user of its own, whom no one here follows or
  // notifies, and nothing of it names alice.
  it.concurrent(
    'leaves no item holding her id, exact counts for the others, and 404 for her',
    async () => {
      expect((await itemsHolding(alice)).length).toBeGreaterThan(20); // she is everywhere before
      // The two unfollows' settle cleanups have run (each deletes its gone edge last): waited for, not slept on.
      await eventually(async () => !(await edgeExists(carol, alice)) && !(await edgeExists(alice, dave)), {
        what: 'the settle cleanups of both unfollows',
        timeoutMs: 60_000,
      });
      expect((await api('DELETE', '/me', { on: own, as: alice })).status).toBe(202);
      await eventually(async () => (await api('GET', `/users/${alice}`, { on: own, as: bob })).status === 404, {
        what: 'the erase job to finish',
        timeoutMs: 60_000,
      });
      // The stream's retract/purge jobs of her posts follow the erase job: wait until nothing holds her id.
      await eventually(async () => (await itemsHolding(alice)).length === 0, { what: 'the retract/purge jobs of her posts', timeoutMs: 60_000 }).catch(
        async (error: unknown) => {
          expect(await itemsHolding(alice)).toEqual([]); // names what is left
          throw error;
        },
      );
      expect((await api('GET', `/users/${bob}`, { on: own, as: bob })).body).toMatchObject({ followers: 0, following: 0 });
      expect((await api('GET', `/users/${carol}`, { on: own, as: carol })).body).toMatchObject({ followers: 0, following: 0 });
      expect((await api('PUT', `/following/${alice}`, { on: own, as: bob })).status).toBe(404); // nothing brings her back
      expect((await api('GET', `/activities/${encodeURIComponent(c1.id)}`, { on: own, as: carol })).body.reactions).toEqual({ counts: {}, own: [] });
      expect((await api('GET', `/activities/${encodeURIComponent(a1.id)}`, { on: own, as: bob })).status).toBe(404);
      expect((await api('GET', '/feed', { on: own, as: bob })).body.items).toEqual([]);
      const carolsGroups = (await api('GET', '/notifications', { on: own, as: carol })).body;
      expect(carolsGroups).toMatchObject({ items: [], unseen: 0, unread: 0 });
      expect((await api('GET', '/notifications', { on: own, as: bob })).body).toMatchObject({ items: [], unseen: 0 }); // her mention of bob
      expect((await api('GET', '/mutes', { on: own, as: frank })).body.items).toEqual([{ userId: null }]); // frank's mute of her stays, as an erased user
      expect((await api('GET', '/notifications', { on: own, as: dave })).body).toMatchObject({ items: [], unseen: 0 }); // her undone follow
      expect((await api('GET', '/blocks', { on: own, as: gina })).body.items).toEqual([{ userId: null }]); // gina's block too

      // Again: harmless, and still nothing of hers.
      expect((await api('DELETE', '/me', { on: own, as: alice })).status).toBe(202);
      await eventually(async () => (await api('GET', `/users/${alice}`, { on: own, as: bob })).status === 404, {
        what: 'the second erase to finish',
        timeoutMs: 60_000,
      });
      expect(await itemsHolding(alice)).toEqual([]);
    },
    120_000,
  );

  it.concurrent(
    'DELETE /users/{userId} needs the admin scope',
    async () => {
      const victim = uid('victim');
      await api('POST', '/activities', { on: own, as: victim, json: { verb: 'post' } });
      expect((await api('DELETE', `/users/${victim}`, { on: own, as: bob })).status).toBe(403);
      expect((await api('DELETE', `/users/${victim}`, { on: own, as: uid('backend'), scope: ADMIN })).status).toBe(202);
      await eventually(async () => (await api('GET', `/users/${victim}`, { on: own, as: bob })).status === 404, { what: 'the admin erase', timeoutMs: 60_000 });
    },
    90_000,
  );
});
