/**
 * `npm run smoke` (local/smoke-cli.ts) against the local stack, as a user runs it after a deploy: the
 * whole run passes and leaves nothing behind; with one step of the API broken (a proxy in front
 * of the stack answers that route 500) it exits 1 naming that step, and still cleans up; a token
 * command that fails is the "token" step.
 */
import { spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { stack } from '../support/local.js';
import { eventually } from '../support/wait.js';

const root = resolve(import.meta.dirname, '../..');

/** Runs `npm run -s smoke -- <args>`; resolves with its exit code and output. */
function smoke(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done, reject) => {
    const child = spawn('npm', ['run', '-s', 'smoke', '--', ...args], { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => done({ code, out, err }));
  });
}

/** A token command printing a pre-minted token per role (the test stack's keys are not on disk). */
async function tokenCommand(author: string, reader: string): Promise<string> {
  return `case {role} in author) echo ${await token(author)};; reader) echo ${await token(reader)};; esac`;
}

/** What the smoke users hold afterwards: the author's posts and the reader's follows and feed. */
async function leftBy(author: string, reader: string) {
  return {
    timeline: (await api('GET', `/users/${author}/activities`, { as: author })).body.items,
    following: (await api('GET', `/users/${reader}/following`, { as: reader })).body.items,
    feed: (await api('GET', '/feed', { as: reader })).body.items,
  };
}

/** Nothing left, once the clean-up's own asynchronous effects (retract, unfollow cleanup) are through. */
async function nothingLeftBy(author: string, reader: string): Promise<void> {
  const empty = { timeline: [], following: [], feed: [] };
  await eventually(async () => JSON.stringify(await leftBy(author, reader)) === JSON.stringify(empty)).catch(async (error: unknown) => {
    expect(await leftBy(author, reader)).toEqual(empty); // names what is left
    throw error;
  });
}

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

/** A proxy to the local API that answers 500 to requests `broken` matches. */
async function brokenApi(broken: (method: string, path: string) => boolean): Promise<string> {
  const upstream = new URL(stack.apiUrl);
  const server = createServer((req, res) => {
    if (broken(req.method ?? 'GET', req.url ?? '/')) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal Server Error"}');
      return;
    }
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe('npm run smoke', () => {
  it('passes every step against the local stack and leaves nothing behind', async () => {
    const [author, reader] = [uid('smoke-a'), uid('smoke-r')];
    const run = await smoke(['--url', stack.apiUrl, '--token-cmd', await tokenCommand(author, reader), '--timeout', '30']);
    expect(run.code, run.out + run.err).toBe(0);
    for (const step of ['token', 'me', 'follow', 'post', 'fan-out', 'page', 'reaction', 'notification', 'delete', 'clean up']) {
      expect(run.out).toContain(`✓ ${step} (`);
    }
    expect(run.out).toContain('smoke: passed');
    await nothingLeftBy(author, reader);
  }, 90_000);

  it('exits 1 naming the broken step, and cleans up all the same', async () => {
    const [author, reader] = [uid('smoke-a'), uid('smoke-r')];
    const url = await brokenApi((method, path) => method === 'PUT' && /\/reactions\//.test(path));
    const run = await smoke(['--url', url, '--token-cmd', await tokenCommand(author, reader), '--timeout', '30']);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/smoke: FAILED at step "reaction": .*answered 500/);
    expect(run.out).toContain('✓ page (');
    expect(run.out).not.toContain('✓ reaction');
    await nothingLeftBy(author, reader);
  }, 90_000);

  it('names the token step when the token command fails, and refuses bad usage with 2', async () => {
    const run = await smoke(['--url', stack.apiUrl, '--token-cmd', 'exit 3']);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/FAILED at step "token"/);
    expect((await smoke(['--token-cmd', 'true'])).code).toBe(2);
  }, 60_000);
});
