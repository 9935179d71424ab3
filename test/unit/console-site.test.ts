/**
 * The console's side of the local HTTP API (local/console-site.ts), on a plain HTTP server with a
 * fixture build: tokens for loopback hosts only, the admin scope on request, static files without
 * escaping the build, and nothing of it in the route table the CDK app deploys. No local stack.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SCOPE, routes } from '../../lib/defs/index.js';
import { parseRollupSpec } from '../../lib/defs/rollup-spec.js';
import { CONSOLE_PREFIX, createConsoleSite, seriesOf } from '../../local/console-site.js';
import { createVerifier, generateLocalKeys, type LocalKeys } from '../../local/jwt.js';

let server: Server;
let port: number;
let keys: LocalKeys;
const built = mkdtempSync(join(tmpdir(), 'tickfeed-console-'));
/** A file beside the build, which no console path may reach. */
const secret = join(dirname(built), `${basename(built)}-secret.txt`);

beforeAll(async () => {
  keys = await generateLocalKeys();
  mkdirSync(join(built, 'assets'));
  writeFileSync(join(built, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(built, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(secret, 'outside the build');
  const site = createConsoleSite({ assetsDir: built, keys, rollups: parseRollupSpec('game:max(score),game:SUM(coins),buy:sum(amount)') });
  server = createServer((req, res) => {
    void site(req, res, new URL(req.url ?? '/', 'http://local')).then((handled) => {
      if (!handled) res.writeHead(418).end('the API would take this');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(built, { recursive: true, force: true });
  rmSync(secret, { force: true });
});

/** A raw request (fetch cannot set Host), keeping the path exactly as written (no `..` folding). */
function get(path: string, opts: { host?: string; method?: string } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: { host: opts.host ?? `127.0.0.1:${port}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject).end();
  });
}

describe('console token endpoint', () => {
  it('mints a user token the local authorizer accepts, for that user and without scopes', async () => {
    const res = await get('/console/token?user=alice');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const body = JSON.parse(res.body);
    expect(body).toMatchObject({ user: 'alice', admin: false });
    const claims = await (await createVerifier(keys))(body.token);
    expect(claims.sub).toBe('alice');
    expect(claims.scope).toBeUndefined();
  });

  it('adds the admin scope with admin=1 (and only then)', async () => {
    const body = JSON.parse((await get('/console/token?user=ops&admin=1')).body);
    expect((await (await createVerifier(keys))(body.token)).scope).toBe(ADMIN_SCOPE);
    const notAdmin = JSON.parse((await get('/console/token?user=ops&admin=true')).body);
    expect((await (await createVerifier(keys))(notAdmin.token)).scope).toBeUndefined();
  });

  it('refuses a user id the API would refuse', async () => {
    for (const bad of ['', 'x'.repeat(257), 'a%0Ab']) {
      const res = await get(`/console/token?user=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(JSON.parse(res.body).token).toBeUndefined();
    }
  });

  it('answers only a loopback Host (a rebound DNS name gets no token)', async () => {
    expect((await get('/console/token?user=alice', { host: `localhost:${port}` })).status).toBe(200);
    const rebound = await get('/console/token?user=alice', { host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).not.toContain('token"');
  });
});

describe('console assets', () => {
  it('serves the build under /console/ with its CSP, and redirects /console there keeping the query', async () => {
    const index = await get('/console/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toContain('text/html');
    expect(index.headers['content-security-policy']).toContain("default-src 'self'");
    expect(index.body).toContain('<title>console</title>');
    const asset = await get('/console/assets/index-abc123.js');
    expect(asset.headers['content-type']).toContain('text/javascript');
    expect(asset.headers['cache-control']).toContain('immutable');
    const bare = await get('/console?user=alice&view=feed');
    expect(bare.status).toBe(308);
    expect(bare.headers.location).toBe('/console/?user=alice&view=feed');
  });

  it('never serves a file outside the build', async () => {
    const name = basename(secret);
    for (const path of [`/console/../${name}`, `/console/%2e%2e/${name}`, `/console/assets/..%2f..%2f${name}`, `/console/${encodeURIComponent(secret)}`]) {
      const res = await get(path);
      expect(res.body, path).not.toContain('outside the build');
      expect(res.status, path).not.toBe(200);
    }
  });

  it('is GET-only, and leaves every other path to the API', async () => {
    expect((await get('/console/', { method: 'POST' })).status).toBe(405);
    expect((await get('/consoles')).status).toBe(418);
    expect((await get('/feed')).status).toBe(418);
  });

  it('says how to build it when the build is missing', async () => {
    const site = createConsoleSite({ assetsDir: join(built, 'nope'), keys, rollups: parseRollupSpec('') });
    const other = createServer((req, res) => void site(req, res, new URL(req.url ?? '/', 'http://local')));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const res = await fetch(`http://127.0.0.1:${(other.address() as { port: number }).port}/console/`);
    await new Promise((resolve) => other.close(resolve));
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run console:build');
  });
});

describe('console config', () => {
  it("lists the spec's series: a count per event type and each entry", async () => {
    expect(JSON.parse((await get('/console/config.json')).body).series).toEqual([
      'buy.amount.sum',
      'buy.count',
      'game.coins.sum',
      'game.count',
      'game.score.max',
    ]);
    expect(seriesOf(parseRollupSpec(''))).toEqual([]);
  });
});

it('the console is local only: no route of the deployed API is under /console', () => {
  expect(routes.filter((r) => r.path === CONSOLE_PREFIX || r.path.startsWith(`${CONSOLE_PREFIX}/`))).toEqual([]);
});
