/**
 * Issue 11, parts 1 and 6 (local JWT checks) on the shared local stack: two kinds of caller, one
 * scope. Tokens with `tickfeed/admin` (the product's backend) may read rollups (a route scope: the
 * authorizer answers 403 `{"message":"Forbidden"}` as API Gateway does), read anyone's activity
 * window, post as another actor and post PROTECTED_VERBS; user tokens get 403 problem+json, and a
 * refused request writes nothing. The local authorizer requires `exp`, `sub` and a recent `iat`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { importJWK, type JWTPayload, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { parseActivityId } from '../../functions/model/activity-id.js';
import { createVerifier, LOCAL_AUDIENCE, LOCAL_ISSUER, loadOrCreateKeys } from '../../local/jwt.js';
import { feedCount, feedRks, timelineRks } from '../support/feeds.js';
import { ADMIN, api, token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { stack } from '../support/local.js';
import { eventually } from '../support/wait.js';

const run = promisify(execFile);
/** PROTECTED_VERBS of the test stack (test/global-setup.ts); no other test posts it. */
const TEST_PROTECTED_VERB = 'trust_protected';
const PROBLEM = 'application/problem+json';

/** A unique verb per test: rollup series (`<verb>.count`) isolate by verb. */
const uverb = (p: string) => `${p}_${uid('v').slice(2).replace(/-/g, '_')}`;

function expectForbiddenProblem(res: { status: number; headers: Headers; body: unknown }) {
  expect(res.status).toBe(403);
  expect(res.headers.get('content-type')).toBe(PROBLEM);
  expect(res.body).toMatchObject({ status: 403, code: 'forbidden' });
}

/** What API Gateway answers for a valid token without the route's scope. */
function expectGatewayForbidden(res: { status: number; headers: Headers; body: unknown }) {
  expect(res.status).toBe(403);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.body).toEqual({ message: 'Forbidden' });
}

/** Minute-aligned [from, to) around now for a rollup read. */
function aroundNow() {
  const m = 60_000;
  const from = new Date(Math.floor(Date.now() / m) * m - 5 * m).toISOString();
  const to = new Date(Math.floor(Date.now() / m) * m + 2 * m).toISOString();
  return `from=${from}&to=${to}`;
}

const countOf = (points: { value: number }[]) => points.reduce((s, p) => s + p.value, 0);

describe('GET /rollups/{name}: an admin-only route (authorizer scope)', () => {
  const path = `/rollups/${uverb('rr')}.count`;

  it('refuses a user token with API Gateway’s bare 403 and serves an admin token', async () => {
    const user = uid('rr-user');
    expectGatewayForbidden(await api('GET', path, { as: user }));
    const ok = await api('GET', path, { as: uid('backend'), scope: ADMIN });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ points: [] });
  });

  it('reads the scope from a space-separated claim and matches scope names exactly', async () => {
    const sub = uid('rr-scopes');
    const withOthers = await token(sub, { scope: ['openid', ADMIN, 'aws.cognito.signin.user.admin'] });
    expect((await api('GET', path, { token: withOthers })).status).toBe(200);
    for (const near of ['tickfeed/admin2', 'tickfeed', 'admin', 'TICKFEED/ADMIN', 'tickfeed/admin/x', 'aws.cognito.signin.user.admin']) {
      expectGatewayForbidden(await api('GET', path, { as: sub, scope: near }));
    }
  });

  it('authenticates before it checks scopes: no token or an expired admin token is 401', async () => {
    const none = await api('GET', path);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: 'Unauthorized' });
    const expired = await token(uid('rr-exp'), { scope: ADMIN, expiresIn: Math.floor(Date.now() / 1000) - 60 });
    expect((await api('GET', path, { token: expired })).status).toBe(401);
  });

  it('is refused by the handler too when the claims lack the scope (defense in depth)', async () => {
    const { handler } = await import('../../functions/handlers/rollups-read.js');
    const event = (claims: Record<string, string>) =>
      ({
        version: '2.0',
        routeKey: 'GET /rollups/{name}',
        rawPath: path,
        rawQueryString: '',
        headers: {},
        pathParameters: { name: path.slice('/rollups/'.length) },
        requestContext: { authorizer: { jwt: { claims, scopes: [] } }, http: { method: 'GET', path } },
        isBase64Encoded: false,
      }) as unknown as APIGatewayProxyEventV2WithJWTAuthorizer;
    const refused = (await handler(event({ sub: 'someone' }))) as { statusCode: number; headers: Record<string, string>; body: string };
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toBe(PROBLEM);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'forbidden' });
    const served = (await handler(event({ sub: 'someone', scope: `openid ${ADMIN}` }))) as { statusCode: number };
    expect(served.statusCode).toBe(200);
  });
});

describe('GET /users/{id}/activity: own, or anyone’s with the admin scope', () => {
  it('lets a user read their own window, refuses another user’s (403 problem+json), serves it to an admin token', async () => {
    const alice = uid('win-a');
    const bob = uid('win-b');
    expect((await api('POST', '/activities', { as: bob, json: { verb: uverb('win') } })).status).toBe(201);

    const own = await eventually(async () => {
      const res = await api('GET', `/users/${bob}/activity`, { as: bob });
      return res.status === 200 && res.body.total === 1 && res.body;
    });
    expect(own.userId).toBe(bob);

    expectForbiddenProblem(await api('GET', `/users/${bob}/activity`, { as: alice }));
    expectForbiddenProblem(await api('GET', `/users/${bob}/activity?window=1h`, { as: alice, scope: 'tickfeed/admin2' }));

    const byAdmin = await api('GET', `/users/${bob}/activity`, { as: uid('backend'), scope: ADMIN });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ userId: bob, total: 1 });
  });
});

describe('POST /activities with "actor": admin tokens only', () => {
  it('refuses the field from a user token (403 problem+json), even naming themselves, and writes nothing', async () => {
    const mallory = uid('act-m');
    const victim = uid('act-v');
    const verb = uverb('forged');
    for (const actor of [victim, mallory]) {
      const res = await api('POST', '/activities', { as: mallory, json: { verb, actor, foreignId: `f-${actor}` } });
      expectForbiddenProblem(res);
      expect(res.body.detail).toMatch(/actor/);
    }
    // Nothing written anywhere: no original, no own copy, no rollup entry. No wait is needed: POST
    // writes the original before it answers, and a late own copy (the fan-out job) or rollup entry
    // could only come from that original's stream record — with neither timeline holding one now,
    // there is none, so the checks after these two hold whenever they look.
    expect(await timelineRks(victim)).toEqual([]);
    expect(await timelineRks(mallory)).toEqual([]);
    expect(await feedCount(victim)).toBe(0);
    expect(await feedCount(mallory)).toBe(0);
    const series = await api('GET', `/rollups/${verb}.count?${aroundNow()}`, { as: uid('backend'), scope: ADMIN });
    expect(series.body.points).toEqual([]);
  });

  it('posts as the named user with an admin token: their timeline, their followers, their rollups', async () => {
    const backend = uid('backend');
    const target = uid('act-t');
    const targetFollower = uid('act-tf');
    const backendFollower = uid('act-bf');
    const verb = uverb('granted');
    expect((await api('PUT', `/following/${target}`, { as: targetFollower })).status).toBe(204);
    expect((await api('PUT', `/following/${backend}`, { as: backendFollower })).status).toBe(204);

    const res = await api('POST', '/activities', { as: backend, scope: ADMIN, json: { verb, actor: target, foreignId: 'order-1' } });
    expect(res.status).toBe(201);
    expect(res.body.actor).toBe(target);
    const key = parseActivityId(res.body.id);
    expect(key?.actor).toBe(target);

    // The target's timeline and own home feed hold it; the backend's hold nothing.
    expect(await timelineRks(target)).toEqual([res.body.rangeKey]);
    expect(await feedRks(target)).toEqual([res.body.rangeKey]);
    expect(await timelineRks(backend)).toEqual([]);
    expect(await feedCount(backend)).toBe(0);
    const timeline = await api('GET', `/users/${target}/activities`, { as: targetFollower });
    expect(timeline.body.items.map((a: { id: string }) => a.id)).toEqual([res.body.id]);

    // Fan-out goes to the target's followers, not the backend's.
    await eventually(async () => (await feedRks(targetFollower)).includes(res.body.rangeKey));
    expect(await feedCount(backendFollower)).toBe(0);

    // Rollups count it once, in the target's activity window (not the backend's).
    await eventually(async () => {
      const w = await api('GET', `/users/${target}/activity`, { as: target });
      return w.body.total === 1;
    });
    const series = await api('GET', `/rollups/${verb}.count?${aroundNow()}`, { as: backend, scope: ADMIN });
    expect(countOf(series.body.points)).toBe(1);
    expect((await api('GET', `/users/${backend}/activity`, { as: backend })).body.total).toBe(0);

    // foreignId is per actor: the same key again is the same activity, nothing written.
    const again = await api('POST', '/activities', { as: backend, scope: ADMIN, json: { verb, actor: target, foreignId: 'order-1' } });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(res.body.id);
    expect(await timelineRks(target)).toEqual([res.body.rangeKey]);

    // It is the target's activity: they may delete it.
    expect((await api('DELETE', `/activities/${res.body.id}`, { as: target })).status).toBe(204);
  });

  it('posts as the caller when an admin token names no actor, and checks a named actor by the user-id rule', async () => {
    const backend = uid('backend');
    const own = await api('POST', '/activities', { as: backend, scope: ADMIN, json: { verb: uverb('self') } });
    expect(own.status).toBe(201);
    expect(own.body.actor).toBe(backend);

    for (const actor of ['', 'x'.repeat(257), 'bad\u0001id']) {
      const res = await api('POST', '/activities', { as: backend, scope: ADMIN, json: { verb: 'post', actor } });
      expect(res.status, JSON.stringify(actor)).toBe(400);
      expect(res.headers.get('content-type')).toBe(PROBLEM);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('body.actor');
    }
  });
});

describe('PROTECTED_VERBS: admin tokens only', () => {
  it('is configured on the test stack', () => {
    expect(stack.env.PROTECTED_VERBS?.split(',')).toContain(TEST_PROTECTED_VERB);
  });

  it('refuses a protected verb from a user token (403 problem+json) and writes nothing; an admin token posts it', async () => {
    const user = uid('pv-user');
    const res = await api('POST', '/activities', { as: user, json: { verb: TEST_PROTECTED_VERB, attributes: { amount: 9e15 } } });
    expectForbiddenProblem(res);
    expect(res.body.detail).toContain(TEST_PROTECTED_VERB);
    expect(await timelineRks(user)).toEqual([]);
    expect(await feedCount(user)).toBe(0);

    // An unprotected verb from the same user is fine.
    expect((await api('POST', '/activities', { as: user, json: { verb: uverb('free') } })).status).toBe(201);

    const backend = uid('backend');
    const byAdmin = await api('POST', '/activities', { as: backend, scope: ADMIN, json: { verb: TEST_PROTECTED_VERB } });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.actor).toBe(backend);
    const forUser = await api('POST', '/activities', { as: backend, scope: ADMIN, json: { verb: TEST_PROTECTED_VERB, actor: user } });
    expect(forUser.status).toBe(201);
    expect(forUser.body.actor).toBe(user);
    expect(await timelineRks(user)).toHaveLength(2);
  });
});

describe('local JWT checks (like API Gateway: 401 {"message":"Unauthorized"})', () => {
  const now = () => Math.floor(Date.now() / 1000);
  /** A correctly signed token with exactly these claims (iss and aud added). */
  async function raw(claims: JWTPayload): Promise<string> {
    const key = await importJWK(stack.privateJwk, 'ES256');
    return new SignJWT({ iss: LOCAL_ISSUER, aud: LOCAL_AUDIENCE, ...claims }).setProtectedHeader({ alg: 'ES256' }).sign(key);
  }
  const unauthorized = async (bearer: string, path = '/me') => {
    const res = await api('GET', path, { token: bearer });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthorized' });
  };

  it('accepts a complete, fresh token', async () => {
    const sub = uid('jwt-ok');
    expect((await api('GET', '/me', { token: await raw({ sub, iat: now(), exp: now() + 600 }) })).status).toBe(200);
    // Issued 23 h ago and still valid: within the maximum age.
    expect((await api('GET', '/me', { token: await token(sub, { issuedAt: now() - 23 * 3600, expiresIn: now() + 600 }) })).status).toBe(200);
  });

  it('refuses a token without exp', async () => {
    await unauthorized(await raw({ sub: uid('jwt'), iat: now() }));
  });

  it('refuses a token without sub, or with an empty or non-string one', async () => {
    await unauthorized(await raw({ iat: now(), exp: now() + 600 }));
    await unauthorized(await raw({ sub: '', iat: now(), exp: now() + 600 }));
    await unauthorized(await raw({ sub: 42 as unknown as string, iat: now(), exp: now() + 600 }));
  });

  it('refuses a token without iat, one older than 24 h (even if not expired), and one issued in the future', async () => {
    const sub = uid('jwt');
    await unauthorized(await raw({ sub, exp: now() + 600 }));
    await unauthorized(await token(sub, { issuedAt: now() - 25 * 3600, expiresIn: now() + 600 }));
    await unauthorized(await token(sub, { issuedAt: now() + 600, expiresIn: now() + 3600 }));
  });

  it('refuses an old admin token on the admin route with 401, not 403', async () => {
    await unauthorized(await token(uid('jwt'), { scope: ADMIN, issuedAt: now() - 25 * 3600, expiresIn: now() + 600 }), '/rollups/x.count');
  });
});

describe('npm run token', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tickfeed-token-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const cli = (...args: string[]) =>
    run(join(process.cwd(), 'node_modules/.bin/tsx'), ['local/token-cli.ts', ...args], {
      env: { ...process.env, TICKFEED_DATA_DIR: dataDir },
    });

  it('prints one token per user id, in order, with the scopes space-separated in `scope`', async () => {
    const { stdout } = await cli('alice', 'backend', '--scope', ADMIN, '--scope', 'openid');
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    const verify = await createVerifier(await loadOrCreateKeys(join(dataDir, 'jwt-keys.json')));
    const [a, b] = await Promise.all(lines.map(verify));
    expect(a).toMatchObject({ sub: 'alice', scope: `${ADMIN} openid` });
    expect(b).toMatchObject({ sub: 'backend', scope: `${ADMIN} openid` });
    expect(Math.abs(b!.exp! - b!.iat! - 12 * 3600)).toBeLessThanOrEqual(1); // --expires-in default 12h
  });

  it('mints user tokens without a scope claim, and refuses no or invalid user ids', async () => {
    const { stdout } = await cli('carol');
    const verify = await createVerifier(await loadOrCreateKeys(join(dataDir, 'jwt-keys.json')));
    expect((await verify(stdout.trim())).scope).toBeUndefined();
    await expect(cli()).rejects.toMatchObject({ code: 2 });
    await expect(cli('x'.repeat(257))).rejects.toMatchObject({ code: 2 });
  });
});
