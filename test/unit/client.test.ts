/**
 * @tickfeed/client against a scripted fetch (no server): the bearer header, how each iterator
 * follows its list's cursor (feeds: `lastRangeKey` as `before`; every other list: `next` as
 * `cursor`) and when it stops, and the error a non-2xx answer throws.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type AggregatedGroup,
  type Comment,
  createTickfeedClient,
  type FollowedTag,
  type NotificationGroup,
  TickfeedApiError,
  type UserListEntry,
} from '../../client/src/index.js';
import { collect } from '../support/collect.js';

const BASE = 'http://tickfeed.test';

/** A fetch that records each request and answers from `respond(url)`. */
function scriptedFetch(respond: (url: URL) => { status?: number; body: unknown; type?: string }) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    const { status = 200, body, type = 'application/json' } = respond(new URL(request.url));
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
  };
  return { fetch, requests, urls: () => requests.map((r) => new URL(r.url)) };
}

/** A feed of `n` activities served `limit` at a time, paged by `before` as the server does. */
function feedOf(n: number) {
  const items = Array.from({ length: n }, (_, i) => ({ id: `a${i}`, rangeKey: String(1000 + i) }));
  return (url: URL) => {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const before = url.searchParams.get('before');
    const start = before === null ? 0 : items.findIndex((a) => a.rangeKey === before) + 1;
    const page = items.slice(start, start + limit);
    const more = start + limit < items.length;
    return { body: { items: page, lastRangeKey: more ? page.at(-1)!.rangeKey : null } };
  };
}

describe('createTickfeedClient', () => {
  it('sends the token as a bearer header; a token function is asked before every request', async () => {
    const server = scriptedFetch(() => ({ body: { userId: 'me', followers: 0, following: 0 } }));
    const issued = ['first', 'second'];
    const client = createTickfeedClient({ baseUrl: BASE, token: async () => issued.shift()!, fetch: server.fetch });
    await client.GET('/me');
    await client.GET('/me');
    expect(server.requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer first', 'Bearer second']);

    const fixed = createTickfeedClient({ baseUrl: BASE, token: 'tok', fetch: server.fetch });
    const { data } = await fixed.GET('/me');
    expect(server.requests.at(-1)!.headers.get('authorization')).toBe('Bearer tok');
    expect(data?.userId).toBe('me');
  });

  it('feedItems walks every page, passing each lastRangeKey back as before, and stops at null', async () => {
    const server = scriptedFetch(feedOf(5));
    const client = createTickfeedClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    const items = await collect(client.feedItems({ limit: 2 }));
    expect(items.map((a) => a.id)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    expect(server.urls().map((u) => `${u.pathname}?${u.searchParams.toString()}`)).toEqual([
      '/feed?limit=2',
      '/feed?limit=2&before=1001',
      '/feed?limit=2&before=1003',
    ]);
  });

  it('fetches a page only when the previous one is used up, and can resume from a cursor', async () => {
    const server = scriptedFetch(feedOf(5));
    const client = createTickfeedClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    for await (const first of client.feedItems({ limit: 2 })) {
      expect(first.id).toBe('a0');
      break;
    }
    expect(server.requests).toHaveLength(1);
    const rest = await collect(client.timelineItems('bob', { limit: 2, before: '1002' }));
    expect(rest.map((a) => a.id)).toEqual(['a3', 'a4']);
    expect(
      server
        .urls()
        .slice(1)
        .map((u) => u.pathname),
    ).toEqual(['/users/bob/activities']);
  });

  it('every list that is not a feed passes next back as cursor and stops at null; ids are escaped', async () => {
    const served: Record<string, unknown[]> = { x: [{ userId: 'x' }], y: [{ userId: 'y' }] };
    // Two pages whatever the list: the first hands out `next: "c1"`, the second `next: null`.
    const server = scriptedFetch((url) => {
      const second = url.searchParams.get('cursor') === 'c1';
      return { body: { items: second ? served.y : served.x, next: second ? null : 'c1', ...(url.pathname === '/notifications' && { unseen: 0, unread: 0 }) } };
    });
    const client = createTickfeedClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    const walks = [
      client.followers('a/b'),
      client.following('a/b', { limit: 1 }),
      client.comments('act 1', { limit: 2 }),
      client.notifications({ limit: 2 }),
      client.mutes(),
      client.blocks({ cursor: 'c1' }),
    ];
    const seen = [];
    for (const walk of walks) seen.push(await collect<unknown>(walk));
    expect(seen).toEqual([...Array(5).fill([{ userId: 'x' }, { userId: 'y' }]), [{ userId: 'y' }]]);
    expect(server.urls().map((u) => `${u.pathname}?${u.searchParams.toString()}`)).toEqual([
      '/users/a%2Fb/followers?',
      '/users/a%2Fb/followers?cursor=c1',
      '/users/a%2Fb/following?limit=1',
      '/users/a%2Fb/following?limit=1&cursor=c1',
      '/activities/act%201/comments?limit=2',
      '/activities/act%201/comments?limit=2&cursor=c1',
      '/notifications?limit=2',
      '/notifications?limit=2&cursor=c1',
      '/mutes?',
      '/mutes?cursor=c1',
      '/blocks?cursor=c1',
    ]);
    expectTypeOf(client.comments).returns.toEqualTypeOf<AsyncGenerator<Comment, void, undefined>>();
    expectTypeOf(client.notifications).returns.toEqualTypeOf<AsyncGenerator<NotificationGroup, void, undefined>>();
    expectTypeOf(client.mutes).returns.toEqualTypeOf<AsyncGenerator<UserListEntry, void, undefined>>();
    expectTypeOf<UserListEntry>().toEqualTypeOf<{ userId: string | null }>();
  });

  it('tagItems pages a tag by lastRangeKey (the tag escaped); followedTags by next', async () => {
    const server = scriptedFetch((url) => (url.pathname === '/me/tags' ? { body: { items: [{ tag: 'Café' }], next: null } } : feedOf(3)(url)));
    const client = createTickfeedClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    expect((await collect(client.tagItems('#café', { limit: 2 }))).map((a) => a.id)).toEqual(['a0', 'a1', 'a2']);
    expect(await collect(client.followedTags())).toEqual([{ tag: 'Café' }]);
    expect(server.urls().map((u) => `${u.pathname}?${u.searchParams.toString()}`)).toEqual([
      '/tags/%23caf%C3%A9/activities?limit=2',
      '/tags/%23caf%C3%A9/activities?limit=2&before=1001',
      '/me/tags?',
    ]);
    expectTypeOf<FollowedTag>().toEqualTypeOf<{ tag: string }>();
  });

  it('aggregatedFeed pages by lastRangeKey like the other feeds, with its own item type', async () => {
    const server = scriptedFetch(feedOf(3));
    const client = createTickfeedClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    const folded = await collect(client.aggregatedFeed({ limit: 2 }));
    expect(folded.map((g) => g.id)).toEqual(['a0', 'a1', 'a2']);
    expect(server.urls().map((u) => `${u.pathname}?${u.searchParams.toString()}`)).toEqual([
      '/feed/aggregated?limit=2',
      '/feed/aggregated?limit=2&before=1001',
    ]);
    expectTypeOf(folded).toEqualTypeOf<AggregatedGroup[]>();
  });

  it('a problem+json answer makes the iterator throw a TickfeedApiError carrying the problem', async () => {
    const problem = { type: 'about:blank', title: 'Bad Request', status: 400, code: 'validation_failed', detail: 'limit must be an integer from 1 to 100.' };
    const server = scriptedFetch(() => ({ status: 400, body: problem, type: 'application/problem+json' }));
    const client = createTickfeedClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    const error = await collect(client.feedItems({ limit: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TickfeedApiError);
    expect(error).toMatchObject({ status: 400, problem, body: problem, message: `400 from GET /feed: ${problem.detail}` });
  });

  it('an answer that is not problem+json (the authorizer refusing a token) keeps its body, with no problem', async () => {
    const server = scriptedFetch(() => ({ status: 401, body: { message: 'Unauthorized' } }));
    const client = createTickfeedClient({ baseUrl: BASE, token: 'expired', fetch: server.fetch });
    const error = (await collect(client.followers('bob')).catch((e: unknown) => e)) as TickfeedApiError;
    expect(error).toBeInstanceOf(TickfeedApiError);
    expect([error.status, error.problem, error.body]).toEqual([401, undefined, { message: 'Unauthorized' }]);
  });

  it('refuses to loop on a server that returns the cursor it was given', async () => {
    const server = scriptedFetch(() => ({ body: { items: [], lastRangeKey: '7' } }));
    const client = createTickfeedClient({ baseUrl: BASE, token: 't', fetch: server.fetch });
    await expect(collect(client.feedItems())).rejects.toThrow('the server returned the same cursor twice: 7');
    expect(server.requests).toHaveLength(2);
  });
});
