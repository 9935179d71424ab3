/**
 * The local HTTP API's front door: /health without a token, /me from the JWT, the authorizer's
 * 401s (no token, garbage, expired, another audience), and the fallback route's 404 and 405 as
 * problem+json.
 */
import { describe, expect, it } from 'vitest';
import { api, token } from '../support/api.js';
import { uid } from '../support/ids.js';

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
