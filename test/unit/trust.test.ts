/** Two kinds of caller: scope parsing, PROTECTED_VERBS, the access rules. */
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../lib/defs/config.js';
import { routes } from '../../lib/defs/routes.js';
import { ADMIN_SCOPE, hasAnyScope, scopesOf } from '../../lib/defs/scopes.js';
import { postingActor, requireAdmin, requireSelfOrAdmin } from '../../functions/services/access.js';

describe('scopesOf', () => {
  it.each([
    [{ scope: 'tickfeed/admin' }, ['tickfeed/admin']],
    [{ scope: 'openid  tickfeed/admin\temail' }, ['openid', 'tickfeed/admin', 'email']],
    [{ scope: '[openid tickfeed/admin]' }, ['openid', 'tickfeed/admin']], // an array claim as API Gateway renders it
    [{ scp: ['tickfeed/admin'] }, ['tickfeed/admin']],
    [{ scope: '' }, []],
    [{ sub: 'x' }, []],
    [undefined, []],
    [{ scope: 42 }, []],
  ] as const)('%j → %j', (claims, scopes) => {
    expect(scopesOf(claims as Record<string, unknown> | undefined)).toEqual(scopes);
  });

  it('matches route scopes exactly, any one of them', () => {
    expect(ADMIN_SCOPE).toBe('tickfeed/admin');
    expect(hasAnyScope(['openid', ADMIN_SCOPE], [ADMIN_SCOPE])).toBe(true);
    expect(hasAnyScope(['tickfeed/admin2', 'tickfeed', 'TICKFEED/ADMIN'], [ADMIN_SCOPE])).toBe(false);
    expect(hasAnyScope([], [ADMIN_SCOPE])).toBe(false);
  });

  it('declares the admin scope on the rollups route, erasing another user and the bulk imports only', () => {
    expect(
      routes
        .filter((r) => r.scopes)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(['DELETE /users/{userId}', 'GET /rollups/{name}', 'POST /batch/activities', 'POST /batch/follows']);
    expect(routes.find((r) => r.path === '/rollups/{name}')?.scopes).toEqual([ADMIN_SCOPE]);
  });
});

describe('PROTECTED_VERBS', () => {
  it('defaults to none and reads a comma-separated list, blanks ignored', () => {
    expect([...readConfig('PROTECTED_VERBS', {})]).toEqual([]);
    expect([...readConfig('PROTECTED_VERBS', { PROTECTED_VERBS: ' purchase, refund,,' })]).toEqual(['purchase', 'refund']);
  });

  it.each(['Purchase', 'buy now', 'x'.repeat(65)])('refuses %j, naming the env var', (raw) => {
    expect(() => readConfig('PROTECTED_VERBS', { PROTECTED_VERBS: raw })).toThrow(ConfigError);
    expect(() => readConfig('PROTECTED_VERBS', { PROTECTED_VERBS: raw })).toThrow(/^PROTECTED_VERBS: /);
  });
});

describe('access rules', () => {
  const protectedVerbs = new Set(['purchase']);

  it('posts as the caller, or as the named actor with admin', () => {
    expect(postingActor('alice', false, { verb: 'post' }, protectedVerbs)).toBe('alice');
    expect(postingActor('backend', true, { verb: 'post' }, protectedVerbs)).toBe('backend');
    expect(postingActor('backend', true, { verb: 'purchase', actor: 'alice' }, protectedVerbs)).toBe('alice');
  });

  it('refuses an actor field or a protected verb without admin', () => {
    expect(() => postingActor('alice', false, { verb: 'post', actor: 'bob' }, protectedVerbs)).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => postingActor('alice', false, { verb: 'post', actor: 'alice' }, protectedVerbs)).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => postingActor('alice', false, { verb: 'purchase' }, protectedVerbs)).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });

  it('lets users read their own data and admins anyone’s', () => {
    expect(() => requireSelfOrAdmin('alice', false, 'alice', 'activity window')).not.toThrow();
    expect(() => requireSelfOrAdmin('backend', true, 'alice', 'activity window')).not.toThrow();
    expect(() => requireSelfOrAdmin('bob', false, 'alice', 'activity window')).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => requireAdmin(false, 'Reading rollups')).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => requireAdmin(true, 'Reading rollups')).not.toThrow();
  });
});
