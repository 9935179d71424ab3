/**
 * Export and erase, on a stack of its own (CONTROL_SETTLE = 2 s, so an unfollow's gone edge is
 * gone within seconds). alice has posts, follows both ways (one ex-follower), reactions and
 * comments both ways, notifications to and from her, mutes and blocks both ways and a foreignId:
 *  - GET /me/export holds every one of them;
 *  - after DELETE /me and its job, a scan of every item of every table finds her id nowhere (keys
 *    or attribute values, sets and lists included), the others' counts are exact again, and
 *    GET /users/alice answers 404; a repeated DELETE is harmless.
 */
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followEdgeKey } from '../../functions/model/follow-edge.js';
import { call, doc, stack, startOwnStack, stopOwnStack, uid, until } from '../support/own-stack.js';

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { CONTROL_SETTLE: '2s', ROLLUPS: 'post:sum(score)' } });
}, 120_000);

afterAll(stopOwnStack);

const [alice, bob, carol, dave, eve, frank, gina] = ['alice', 'bob', 'carol', 'dave', 'eve', 'frank', 'gina'].map((n) => uid(n)) as [string, string, string, string, string, string, string];

/** Every item of every table that mentions `needle` anywhere (as JSON; sets become arrays). */
async function itemsMentioning(needle: string): Promise<{ table: string; item: string }[]> {
  const found: { table: string; item: string }[] = [];
  for (const table of Object.values(stack.tableNames)) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }));
      for (const item of page.Items ?? []) {
        const text = JSON.stringify(item, (_k, v) => (v instanceof Set ? [...v] : typeof v === 'bigint' ? v.toString() : v));
        if (text.includes(needle)) found.push({ table, item: text.slice(0, 300) });
      }
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return found;
}

const edgeExists = async (follower: string, followee: string) =>
  (await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: followEdgeKey(follower, followee), ConsistentRead: true }))).Item !== undefined;

let a1: { id: string }, a2: { id: string }, c1: { id: string };

describe('export', () => {
  it("holds every kind of thing tickfeed keeps about the caller", async () => {
    expect((await call('PUT', `/following/${alice}`, bob)).status).toBe(204);
    expect((await call('PUT', `/following/${carol}`, alice)).status).toBe(204);
    expect((await call('PUT', `/following/${alice}`, carol)).status).toBe(204);
    a1 = (await call('POST', '/activities', alice, { verb: 'post', content: `hello @${bob}`, to: [carol], attributes: { score: 3 }, foreignId: 'f-1' })).body;
    a2 = (await call('POST', '/activities', alice, { verb: 'post', content: 'second' })).body;
    c1 = (await call('POST', '/activities', carol, { verb: 'post', content: 'carol here' })).body;
    expect((await call('DELETE', `/following/${alice}`, carol)).status).toBe(204); // an ex-follower
    expect((await call('PUT', `/activities/${encodeURIComponent(a1.id)}/reactions/like`, bob)).status).toBe(204);
    expect((await call('POST', `/activities/${encodeURIComponent(a1.id)}/comments`, bob, { text: 'nice one' })).status).toBe(201);
    expect((await call('PUT', `/activities/${encodeURIComponent(c1.id)}/reactions/love`, alice)).status).toBe(204);
    expect((await call('POST', `/activities/${encodeURIComponent(c1.id)}/comments`, alice, { text: `reply from ${alice}` })).status).toBe(201);
    // Traces whose pointers are gone before the erase: a comment she deleted (its notification
    // stays, as history) and a follow she undid (dave's follow notification stays).
    const gone = (await call('POST', `/activities/${encodeURIComponent(c1.id)}/comments`, alice, { text: 'regret' })).body;
    expect((await call('PUT', `/following/${dave}`, alice)).status).toBe(204);
    await until(async () => (await call('GET', '/notifications', dave)).body.items.length === 1, "dave's follow notification");
    expect((await call('DELETE', `/activities/${encodeURIComponent(c1.id)}/comments/${gone.id}`, alice)).status).toBe(204);
    expect((await call('DELETE', `/following/${dave}`, alice)).status).toBe(204);
    for (const [who, path] of [[alice, `/mutes/${dave}`], [alice, `/blocks/${eve}`], [frank, `/mutes/${alice}`], [gina, `/blocks/${alice}`]] as const) {
      expect((await call('PUT', path, who)).status).toBe(204);
    }
    await until(async () => (await call('GET', '/notifications', alice)).body.items.length === 3, "alice's notifications (follow, like, comment)");
    await until(async () => (await call('GET', '/notifications', carol)).body.items.length === 4, "carol's (follow, to, love, comment)");
    await until(async () => (await call('GET', '/feed', bob)).body.items.length === 2, "alice's posts in bob's feed");
    // Activity windows are written once per tumbling window of the stream (1 s on this stack).
    await until(async () => (await call('GET', `/users/${alice}/activity`, alice)).body.total >= 2, "alice's activity window");

    const parts: (Record<string, unknown> & { next: string | null })[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: Record<string, unknown> & { next: string | null } } = await call('GET', `/me/export${cursor ? `?cursor=${cursor}` : ''}`, alice);
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
    expect(all('notifications').map((g) => (g as { verb: string }).verb).sort()).toEqual(['comment', 'follow', 'like']);
    expect(all('mutes')).toEqual([{ userId: dave }]);
    expect(all('blocks')).toEqual([{ userId: eve }]);
    expect((await call('GET', '/me/export?cursor=bogus', alice)).status).toBe(400);
  }, 60_000);
});

describe('erase', () => {
  it('leaves no item holding her id, exact counts for the others, and 404 for her', async () => {
    expect((await itemsMentioning(alice)).length).toBeGreaterThan(20); // she is everywhere before
    // The two unfollows' settle cleanups have run (each deletes its gone edge last): waited for, not slept on.
    await until(async () => !(await edgeExists(carol, alice)) && !(await edgeExists(alice, dave)), 'the settle cleanups of both unfollows');
    expect((await call('DELETE', '/me', alice)).status).toBe(202);
    await until(async () => (await call('GET', `/users/${alice}`, bob)).status === 404, 'the erase job to finish', 60_000);
    // The stream's retract/purge jobs of her posts follow the erase job: wait until nothing holds her id.
    await until(async () => (await itemsMentioning(alice)).length === 0, 'the retract/purge jobs of her posts', 60_000).catch(async (error: unknown) => {
      expect(await itemsMentioning(alice)).toEqual([]); // names what is left
      throw error;
    });
    expect((await call('GET', `/users/${bob}`, bob)).body).toMatchObject({ followers: 0, following: 0 });
    expect((await call('GET', `/users/${carol}`, carol)).body).toMatchObject({ followers: 0, following: 0 });
    expect((await call('PUT', `/following/${alice}`, bob)).status).toBe(404); // nothing brings her back
    expect((await call('GET', `/activities/${encodeURIComponent(c1.id)}`, carol)).body.reactions).toEqual({ counts: {}, own: [] });
    expect((await call('GET', `/activities/${encodeURIComponent(a1.id)}`, bob)).status).toBe(404);
    expect((await call('GET', '/feed', bob)).body.items).toEqual([]);
    const carolsGroups = (await call('GET', '/notifications', carol)).body;
    expect(carolsGroups).toMatchObject({ items: [], unseen: 0, unread: 0 });
    expect((await call('GET', '/notifications', bob)).body).toMatchObject({ items: [], unseen: 0 }); // her mention of bob
    expect((await call('GET', '/mutes', frank)).body.items).toEqual([{ userId: null }]); // frank's mute of her stays, as an erased user
    expect((await call('GET', '/notifications', dave)).body).toMatchObject({ items: [], unseen: 0 }); // her undone follow
    expect((await call('GET', '/blocks', gina)).body.items).toEqual([{ userId: null }]); // gina's block too

    // Again: harmless, and still nothing of hers.
    expect((await call('DELETE', '/me', alice)).status).toBe(202);
    await until(async () => (await call('GET', `/users/${alice}`, bob)).status === 404, 'the second erase to finish', 60_000);
    expect(await itemsMentioning(alice)).toEqual([]);
  }, 120_000);

  it('DELETE /users/{userId} needs the admin scope', async () => {
    const victim = uid('victim');
    await call('POST', '/activities', victim, { verb: 'post' });
    expect((await call('DELETE', `/users/${victim}`, bob)).status).toBe(403);
    expect((await call('DELETE', `/users/${victim}`, uid('backend'), undefined, { scope: 'tickfeed/admin' })).status).toBe(202);
    await until(async () => (await call('GET', `/users/${victim}`, bob)).status === 404, 'the admin erase', 60_000);
  }, 90_000);
});
