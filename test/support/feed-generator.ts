/**
 * A feed generator for the tests (docs/ranked-feeds.md#feed-generators), on loopback: each named
 * route answers as its test says — well, slowly (never, until closed), with a looping cursor, past
 * `limit`, with junk — and records every call it gets. The stack reaches it because the test stack
 * runs with FEED_GENERATOR_LOOPBACK=on.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GeneratorCall {
  readonly method: string;
  readonly limit: number | undefined;
  readonly cursor: string | undefined;
  readonly authorization: string | undefined;
  readonly body: unknown;
}

/**
 * What a route answers: JSON (`json`), raw text, a status; nothing at all (`hang`), or its headers
 * and the start of a body that never ends (`trickle`). `contentLength`: say the body's length up
 * front (else it is sent chunked).
 */
export type GeneratorAnswer = { status?: number; json?: unknown; text?: string; hang?: true; trickle?: true; contentLength?: true };

export interface TestGenerator {
  /** The URL of route `name`, answering with `answer` from now on. */
  route(name: string, answer: (call: GeneratorCall) => GeneratorAnswer): string;
  calls(name: string): readonly GeneratorCall[];
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

export async function startTestGenerator(): Promise<TestGenerator> {
  const answers = new Map<string, (call: GeneratorCall) => GeneratorAnswer>();
  const calls = new Map<string, GeneratorCall[]>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const name = url.pathname.slice(1);
      const limit = url.searchParams.get('limit');
      const call: GeneratorCall = {
        method: req.method ?? 'GET',
        limit: limit === null ? undefined : Number(limit),
        cursor: url.searchParams.get('cursor') ?? undefined,
        authorization: req.headers.authorization,
        body: await bodyOf(req),
      };
      calls.set(name, [...(calls.get(name) ?? []), call]);
      const answer = answers.get(name)?.(call) ?? { status: 404 };
      if (answer.hang || answer.trickle) {
        hanging.add(res);
        if (answer.trickle) res.writeHead(200, { 'content-type': 'application/json' }).write('{"items":[');
        return;
      }
      const text = answer.text ?? JSON.stringify(answer.json ?? {});
      const length = answer.contentLength ? { 'content-length': String(Buffer.byteLength(text)) } : { 'transfer-encoding': 'chunked' };
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...length });
      res.end(text);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    route(name, answer) {
      answers.set(name, answer);
      return `http://127.0.0.1:${port}/${name}`;
    },
    calls: (name) => calls.get(name) ?? [],
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
