/**
 * Responses conform to the OpenAPI document. `api()` (support/local.ts) checks every response it
 * receives against the document for its route and status (support/response-check.ts); this file
 * drives the main flows through it — posting, feed and timeline pages, follow/unfollow, follower
 * lists, delete, and the problem answers — then asserts that no response broke the document,
 * neither here nor in any file of this run that used `api()` before it.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { configKeys } from '../../lib/defs/index.js';
import { profileKey } from '../../functions/model/profile.js';
import { ADMIN, api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';
import { responsesChecked, violationsHere, violationsThisRun } from '../support/response-log.js';

const statuses = new Set<number>();
let calls = 0;
async function call(method: string, path: string, opts: Parameters<typeof api>[2] = {}) {
  const res = await api(method, path, opts);
  calls++;
  statuses.add(res.status);
  return res;
}

describe('responses conform to the OpenAPI document', () => {
  it('the main flows', async () => {
    const [alice, bob] = [uid('rc-alice'), uid('rc-bob')];

    // Follow, post, read pages.
    expect((await call('PUT', `/following/${alice}`, { as: bob })).status).toBe(204);
    const posted = [];
    for (const content of ['one', 'two', 'three']) {
      const res = await call('POST', '/activities', { as: alice, json: { verb: 'post', content, attributes: { score: 2, ok: true } } });
      expect(res.status).toBe(201);
      posted.push(res.body);
    }
    const again = await call('POST', '/activities', { as: alice, json: { verb: 'post', foreignId: 'rc-1', object: 'photo:1' } });
    expect(again.status).toBe(201);
    expect((await call('POST', '/activities', { as: alice, json: { verb: 'post', foreignId: 'rc-1', object: 'photo:1' } })).status).toBe(200);
    await eventually(async () => (await call('GET', '/feed?limit=10', { as: bob })).body.items?.length === 4);
    const first = await call('GET', '/feed?limit=2', { as: bob });
    expect(first.body.lastRangeKey).not.toBeNull();
    expect((await call('GET', `/feed?limit=2&before=${first.body.lastRangeKey}`, { as: bob })).body.items).toHaveLength(2);
    expect((await call('GET', `/feed?since=${posted[0].rangeKey}`, { as: bob })).status).toBe(200);
    const timeline = await call('GET', `/users/${alice}/activities?limit=3`, { as: bob });
    expect(timeline.body.items).toHaveLength(3);
    expect((await call('GET', `/activities/${posted[0].id}`, { as: bob })).status).toBe(200);

    // Follower lists and counts.
    const followers = await call('GET', `/users/${alice}/followers?limit=1`, { as: bob });
    expect(followers.body.items).toEqual([{ userId: bob }]);
    let page = followers.body;
    const all = [...page.items];
    while (page.next !== null) {
      page = (await call('GET', `/users/${alice}/followers?limit=1&cursor=${encodeURIComponent(page.next)}`, { as: bob })).body;
      all.push(...page.items);
    }
    expect(all).toEqual([{ userId: bob }]);
    expect((await call('GET', `/users/${alice}/followers?limit=1&before=x`, { as: bob })).status).toBe(400); // not a list parameter
    expect((await call('GET', `/users/${bob}/following`, { as: bob })).body.items).toEqual([{ userId: alice }]);
    expect((await call('GET', `/users/${alice}`, { as: bob })).body).toEqual({ userId: alice, followers: 1, following: 0 });
    expect((await call('GET', '/me', { as: bob })).body).toEqual({ userId: bob, followers: 0, following: 1 });
    expect((await call('DELETE', `/following/${alice}`, { as: bob })).status).toBe(204);

    // Delete (only the actor).
    expect((await call('DELETE', `/activities/${again.body.id}`, { as: bob })).status).toBe(403);
    expect((await call('DELETE', `/activities/${again.body.id}`, { as: alice })).status).toBe(204);
    expect((await call('GET', `/activities/${again.body.id}`, { as: alice })).status).toBe(404);

    // Reads of the rollups and activity windows, public routes.
    expect((await call('GET', '/rollups/post.count?granularity=hour', { as: uid('rc-backend'), scope: ADMIN })).status).toBe(200);
    expect((await call('GET', `/users/${alice}/activity?window=2h`, { as: alice })).status).toBe(200);
    expect((await call('GET', '/health')).status).toBe(200);
    expect((await call('GET', '/openapi.json')).status).toBe(200);
  });

  it('the problem answers', async () => {
    const me = uid('rc-problems');
    expect((await call('GET', '/feed?limit=0', { as: me })).status).toBe(400);
    expect((await call('PUT', `/following/${me}`, { as: me })).status).toBe(400);
    expect((await call('POST', '/activities', { as: me, json: { verb: 'post', extra: 1 } })).status).toBe(400);
    expect((await call('GET', '/feed')).status).toBe(401);
    expect((await call('GET', '/rollups/post.count', { as: me })).status).toBe(403); // the authorizer: no scope
    expect((await call('GET', `/users/${uid('rc-other')}/activity`, { as: me })).status).toBe(403);
    expect((await call('POST', '/activities', { as: me, json: { verb: 'post', actor: uid('rc-other') } })).status).toBe(403);
    expect((await call('GET', '/activities/nx', { as: me })).status).toBe(404);
    // 409: following one more than MAX_FOLLOWING (the counter is what the limit reads).
    const full = uid('rc-full');
    await doc.send(
      new UpdateCommand({
        TableName: stack.tableNames.graph,
        Key: profileKey(full),
        UpdateExpression: 'SET following = :n',
        ExpressionAttributeValues: { ':n': Number(configKeys.MAX_FOLLOWING.default) },
      }),
    );
    expect((await call('PUT', `/following/${me}`, { as: full })).status).toBe(409);
    expect((await call('GET', '/no/such/path', { as: me })).status).toBe(404);
    expect((await call('POST', '/feed', { as: me, json: {} })).status).toBe(405);
    expect((await call('POST', '/activities', { as: me, json: { verb: 'post', content: 'x'.repeat(17 * 1024) } })).status).toBe(413);
    expect((await call('POST', '/activities', { as: me, raw: '{"verb":"post"}', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it('no response broke the document: this file’s, and every earlier file’s in this run', () => {
    expect([...statuses].sort((a, b) => a - b)).toEqual([200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 415]);
    expect(responsesChecked()).toBeGreaterThanOrEqual(calls); // every one was checked
    expect(violationsHere()).toEqual([]);
    expect(violationsThisRun()).toEqual([]);
  });
});
