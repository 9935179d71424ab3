/**
 * Every 4xx the local HTTP API gives before a route is reached is
 * problem+json — an over-long request target (414), over-long headers (431), a request Node's
 * parser refuses (400) — never the bare status line Node writes by default.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { token } from '../support/api.js';
import { uid } from '../support/ids.js';
import { stack } from '../support/local.js';

const target = new URL(stack.apiUrl);

/** Send raw bytes, read until the server closes: the status line, headers and body. */
function raw(text: string): Promise<{ statusLine: string; headers: Map<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname, () => socket.end(text));
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (out += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = out.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      resolve({ statusLine, headers: new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()])), body });
    });
  });
}

function expectProblem(status: number, contentType: string | undefined | null, body: string): void {
  expect(contentType).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(body) as { status: number; title: string; type: string };
  expect(problem.status).toBe(status);
  expect(problem.type).toBe('about:blank');
  expect(problem.title.length).toBeGreaterThan(0);
}

describe('4xx before any route are problem+json', () => {
  it('a request target over 8 KiB (but within the header limit) is a 414', async () => {
    const res = await fetch(`${stack.apiUrl}/feed?limit=20&pad=${'x'.repeat(10_000)}`, { headers: { authorization: `Bearer ${await token(uid('edge'))}` } });
    expect(res.status).toBe(414);
    expectProblem(414, res.headers.get('content-type'), await res.text());
  });

  it('a request line longer than all headers may be (Node refuses it while parsing) is a 414', async () => {
    const res = await raw(`GET /feed?pad=${'x'.repeat(20_000)} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
    expect(res.statusLine).toBe('HTTP/1.1 414 URI Too Long');
    expectProblem(414, res.headers.get('content-type'), res.body);
  });

  it('headers over 16 KiB are a 431', async () => {
    const res = await raw(`GET /feed HTTP/1.1\r\nhost: 127.0.0.1\r\nx-padding: ${'p'.repeat(20_000)}\r\n\r\n`);
    expect(res.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expectProblem(431, res.headers.get('content-type'), res.body);
  });

  it('a request that is not HTTP is a 400', async () => {
    const res = await raw('GE[T /feed HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    expect(res.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expectProblem(400, res.headers.get('content-type'), res.body);
  });

  it('a target just under the limit is still served', async () => {
    const res = await fetch(`${stack.apiUrl}/health?pad=${'x'.repeat(8000)}`);
    expect(res.status).toBe(200);
  });
});
