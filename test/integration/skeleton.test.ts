import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { homeFeedKey } from '../../functions/model/feed-copy.js';
import { seedFollowers } from '../support/graph-seed.js';
import { api, token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';
import { originalItem, writeFeedItems } from '../support/seed-originals.js';

describe('local HTTP API', () => {
  it('serves /health without a token', async () => {
    const res = await api('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers /me with the caller from the JWT, read through DynamoDB', async () => {
    const me = uid('me');
    const res = await api('GET', '/me', { as: me });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: me, followers: 0, following: 0 });
  });

  it.each([
    ['no token', undefined],
    ['garbage', 'not-a-jwt'],
  ])('rejects /me with %s (401, like the HTTP API authorizer)', async (_name, bearer) => {
    const res = await api('GET', '/me', bearer ? { token: bearer } : {});
    expect(res.status).toBe(401);
  });

  it('rejects an expired token and one for another audience', async () => {
    const expired = await token('x', { expiresIn: Math.floor(Date.now() / 1000) - 60 });
    const otherAudience = await token('x', { audience: 'someone-else' });
    expect((await api('GET', '/me', { token: expired })).status).toBe(401);
    expect((await api('GET', '/me', { token: otherAudience })).status).toBe(401);
  });

  it('answers unknown paths 404 and wrong methods 405 as problem+json', async () => {
    const missing = await api('GET', '/no-such-thing');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    const wrongMethod = await api('DELETE', '/health');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });
});

describe('event-source plumbing', () => {
  it('carries an original through the stream, the outbox, SQS and the worker into a follower feed', async () => {
    const author = uid('plumb-a');
    const [follower] = await seedFollowers(author, 1);
    const original = originalItem({ actor: author, verb: 'plumb', timeMs: Date.now() });
    await writeFeedItems([original]);
    const copy = await eventually(async () => {
      const { Item } = await doc.send(
        new GetCommand({ TableName: stack.tableNames.feed, Key: homeFeedKey(follower!, original.rk) }),
      );
      return Item;
    });
    expect(copy.id).toBe(original.id);
    expect(copy.pk).toBe(`f#${follower}`); // a copy lives in the follower's home feed, not a timeline
    expect(copy.deletedAt).toBeUndefined();
  });
});
