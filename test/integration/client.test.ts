/**
 * @tickfeed/client, as a consumer installs it (the workspace package, built to client/dist),
 * against the local stack: posting and reading a feed across pages, following and listing
 * followers, the notifications that following, reacting and commenting produce, and the errors a
 * refused request throws.
 */
import { createTickfeedClient, TickfeedApiError, type TickfeedClient } from '@tickfeed/client';
import { describe, expect, it } from 'vitest';
import { token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { stack } from '../support/local.js';
import { eventually } from '../support/wait.js';
import { collect } from '../support/collect.js';

/** A client acting as `userId`, counting the requests it sends. */
function clientAs(userId: string): TickfeedClient & { requests: () => number } {
  let requests = 0;
  const client = createTickfeedClient({
    baseUrl: stack.apiUrl,
    token: () => token(userId),
    fetch: (request) => {
      requests++;
      return fetch(request);
    },
  });
  return Object.assign(client, { requests: () => requests });
}

describe('@tickfeed/client on the local stack', () => {
  it('posts, then reads the whole feed and timeline page by page, newest first', async () => {
    const alice = clientAs(uid('alice'));
    const posted: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { data, response } = await alice.POST('/activities', { body: { verb: 'post', content: `client ${i}` } });
      expect(response.status).toBe(201);
      posted.push(data!.id);
    }
    const newestFirst = posted.toReversed();

    const before = alice.requests();
    const feed = await collect(alice.feedItems({ limit: 2 }));
    expect(feed.map((a) => a.id)).toEqual(newestFirst);
    expect(alice.requests() - before, 'three pages of 2, 2 and 1').toBe(3);

    const { data: me } = await alice.GET('/me');
    const timeline = await collect(alice.timelineItems(me!.userId, { limit: 4 }));
    expect(timeline.map((a) => a.content)).toEqual(['client 4', 'client 3', 'client 2', 'client 1', 'client 0']);

    // Resuming from a cursor: everything older than the second-newest post.
    const older = await collect(alice.feedItems({ limit: 2, before: feed[1]!.rangeKey }));
    expect(older.map((a) => a.id)).toEqual(newestFirst.slice(2));
  });

  it('follows, then lists followers and following across pages', async () => {
    const star = uid('star');
    const fans = [uid('fan'), uid('fan'), uid('fan')];
    for (const fan of fans) {
      const { response } = await clientAs(fan).PUT('/following/{userId}', { params: { path: { userId: star } } });
      expect(response.status).toBe(204);
    }
    const reader = clientAs(uid('reader'));
    const before = reader.requests();
    const followers = await collect(reader.followers(star, { limit: 2 }));
    expect(
      followers.map((f) => f.userId),
      'newest follow first',
    ).toEqual(fans.toReversed());
    expect(reader.requests() - before).toBe(2);
    expect(await collect(reader.following(fans[0]!))).toEqual([{ userId: star }]);
  });

  it('mutes and blocks walk their lists by the same cursor', async () => {
    const me = clientAs(uid('muter'));
    const targets = [uid('m-a'), uid('m-b')]; // alphabetical, as the list answers
    for (const userId of targets) expect((await me.PUT('/mutes/{userId}', { params: { path: { userId } } })).response.status).toBe(204);
    expect(await collect(me.mutes({ limit: 1 }))).toEqual(targets.map((userId) => ({ userId })));
    expect(await collect(me.blocks())).toEqual([]);
  });

  it('notifications: a follow, a like and a comment reach the author; counts; marking all read', async () => {
    const [aliceId, bobId] = [uid('alice'), uid('bob')];
    const [alice, bob] = [clientAs(aliceId), clientAs(bobId)];
    const { data: post } = await alice.POST('/activities', { body: { verb: 'post', content: 'tell me' } });
    const id = post!.id;

    expect((await bob.PUT('/following/{userId}', { params: { path: { userId: aliceId } } })).response.status).toBe(204);
    expect((await bob.PUT('/activities/{id}/reactions/{kind}', { params: { path: { id, kind: 'like' } } })).response.status).toBe(204);
    const commented = await bob.POST('/activities/{id}/comments', { params: { path: { id } }, body: { text: 'nice' } });
    expect(commented.response.status).toBe(201);
    expect(commented.data).toMatchObject({ actor: bobId, text: 'nice' });

    // The notification worker runs after the requests answered: walk the list (a page of one
    // group at a time, so the iterator follows real cursors) until all three groups are there.
    const groups = await eventually(
      async () => {
        const all = await collect(alice.notifications({ limit: 1 }));
        return all.length >= 3 ? all : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const summary = groups.map((g) => ({ verb: g.verb, object: g.object, actors: g.actors, actorCount: g.actorCount, seen: g.seen, read: g.read }));
    expect(summary.sort((x, y) => x.verb.localeCompare(y.verb))).toEqual([
      { verb: 'comment', object: id, actors: [bobId], actorCount: 1, seen: false, read: false },
      { verb: 'follow', object: aliceId, actors: [bobId], actorCount: 1, seen: false, read: false },
      { verb: 'like', object: id, actors: [bobId], actorCount: 1, seen: false, read: false },
    ]);
    expect((await alice.GET('/notifications/counts')).data).toEqual({ unseen: 3, unread: 3 });
    expect(await collect(bob.notifications()), 'acting notifies only the other party').toEqual([]);

    const marked = await alice.POST('/notifications/read', {}); // no body: every group
    expect(marked.response.status).toBe(204);
    expect((await alice.GET('/notifications/counts')).data).toEqual({ unseen: 0, unread: 0 });
    expect((await collect(alice.notifications())).map((g) => [g.seen, g.read])).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
  });

  it('a refused request throws a TickfeedApiError with the problem+json body', async () => {
    const alice = clientAs(uid('alice'));
    const error = await collect(alice.feedItems({ limit: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TickfeedApiError);
    expect(error).toMatchObject({ status: 400, problem: { status: 400, code: 'validation_failed' } });

    const anonymous = createTickfeedClient({ baseUrl: stack.apiUrl, token: 'not-a-jwt' });
    const refused = (await collect(anonymous.followers('anyone')).catch((e: unknown) => e)) as TickfeedApiError;
    expect([refused.status, refused.problem]).toEqual([401, undefined]);
  });
});
