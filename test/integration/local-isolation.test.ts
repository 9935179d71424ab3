/**
 * The local stack reaches no one but this host. Every listener of the shared
 * stack (HTTP API, SQS server, DynamoDB Local) is bound to loopback, DynamoDB Local's JVM holds no
 * listening socket anywhere else, no browser origin gets CORS access to DynamoDB Local, and a
 * request naming another host (a DNS-rebound page) is refused.
 */
import { request } from 'node:http';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import { listenOnLoopback } from '../../local/ports.js';
import { startSqsServer } from '../../local/sqs-server.js';
import { isLoopback, listeners, socketInodesOf } from '../support/listeners.js';
import { stack } from '../support/local.js';

const portOf = (url: string) => Number(new URL(url).port);

/** A signed-looking DynamoDB call (DynamoDB Local checks the header's shape, not the signature). */
const listTables = {
  'x-amz-target': 'DynamoDB_20120810.ListTables',
  'content-type': 'application/x-amz-json-1.0',
  authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
};

function rawRequest(
  url: string,
  opts: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method, headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('the local stack listens on loopback only', () => {
  it("DynamoDB Local's JVM holds listening sockets on 127.0.0.1 only", () => {
    const held = socketInodesOf(stack.dynamoPid);
    const own = listeners().filter((l) => held.has(l.inode));
    expect(own.map((l) => l.port)).toContain(portOf(stack.dynamoEndpoint));
    expect(own.filter((l) => !isLoopback(l.address))).toEqual([]);
  });

  it('every port of the stack (HTTP API, SQS, DynamoDB Local) is bound to loopback and nothing else', () => {
    const all = listeners();
    for (const url of [stack.apiUrl, stack.sqsEndpoint, stack.dynamoEndpoint]) {
      const onPort = all.filter((l) => l.port === portOf(url));
      expect(onPort.length, url).toBeGreaterThan(0);
      expect(
        onPort.filter((l) => !isLoopback(l.address)),
        url,
      ).toEqual([]);
    }
  });
});

describe('no browser page may call DynamoDB Local', () => {
  it('a CORS preflight from a page gets no Access-Control-Allow-Origin', async () => {
    for (const origin of ['http://localhost:5173', 'https://example.com', 'null']) {
      const res = await fetch(stack.dynamoEndpoint, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-amz-target,authorization' },
      });
      await res.text();
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('a call carrying an Origin gets no Access-Control-Allow-Origin either', async () => {
    const res = await fetch(stack.dynamoEndpoint, { method: 'POST', headers: { ...listTables, origin: 'http://localhost:5173' }, body: '{}' });
    expect(res.status).toBe(200); // the call itself works (a tool is not a page)
    await res.text();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a request whose Host is not a loopback name (a DNS-rebound page), serves loopback names', async () => {
    const port = portOf(stack.dynamoEndpoint);
    const rebound = await rawRequest(stack.dynamoEndpoint, { method: 'POST', headers: { ...listTables, host: `attacker.example:${port}` }, body: '{}' });
    expect(rebound.status).toBe(403);
    expect(rebound.body).not.toContain('TableNames');
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const ok = await rawRequest(stack.dynamoEndpoint, { method: 'POST', headers: { ...listTables, host }, body: '{}' });
      expect(ok.status, host).toBe(200);
      expect(JSON.parse(ok.body).TableNames).toEqual(expect.arrayContaining([stack.tableNames.feed]));
    }
  });
});

describe('a port another process holds', () => {
  // The stack asks for port 0 (the OS picks as it binds); a fixed port — a restart on the port
  // clients already know — can be taken meanwhile: the start must fail at once, saying why.
  it('fails the start of DynamoDB Local and of the SQS server with the bind error, not a hang or a stray server', async () => {
    const holder = createServer();
    const port = await listenOnLoopback(holder, 0);
    try {
      // The JVM's exit ends the wait with its error (not the wait's own timeout, nor a probe
      // answered by whatever holds the port).
      await expect(startDynamoDbLocal({ port })).rejects.toThrow(/exited.*Failed to bind/s);
      await expect(startSqsServer({ port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((r) => holder.close(r));
    }
  }, 40_000);
});
