/**
 * Local IAM for code the runtime cannot reach into: a bundle carries its own copy of the SDK, so
 * the middleware of local/iam.ts cannot be added to its clients. Instead each bundled function
 * gets its own loopback endpoint for DynamoDB and SQS (its AWS_ENDPOINT_URL_* point here): every
 * call is checked against the function's grants (the same checks, lib/defs/functions.ts) and then
 * passed on, or refused with the AccessDeniedException AWS would answer.
 * The SQS client sends to the host of the queue URL it is given, whatever its endpoint, so the
 * function's queue URLs name this proxy too (`queueUrlFor`); the proxy puts the SQS server's
 * origin back before it checks and forwards.
 */
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { FunctionId } from '../lib/defs/index.js';
import { checkDynamoCall, checkSqsCall } from './iam.js';
import { listenOnLoopback } from './ports.js';

export interface IamProxy {
  /** The endpoint the function's SDK clients use (both services). */
  readonly url: string;
  /** The URL the function is given for the SQS server's queue `realUrl`: the same queue, through this proxy. */
  queueUrlFor(realUrl: string): string;
  stop(): Promise<void>;
}

export interface IamProxyOptions {
  readonly fn: FunctionId;
  readonly dynamoEndpoint: string;
  readonly sqsEndpoint: string;
  /** Table and queue env vars → local names and URLs: how a physical name maps back to its id. */
  readonly names: NodeJS.ProcessEnv;
}

const DYNAMO = 'DynamoDB_20120810.';
const SQS = 'AmazonSQS.';

export async function startIamProxy(opts: IamProxyOptions): Promise<IamProxy> {
  const sqsOrigin = new URL(opts.sqsEndpoint).origin;
  let origin = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      let body = await readAll(req);
      const target = String(req.headers['x-amz-target'] ?? '');
      const upstream = target.startsWith(DYNAMO) ? opts.dynamoEndpoint : target.startsWith(SQS) ? opts.sqsEndpoint : undefined;
      try {
        if (!upstream) throw Object.assign(new Error(`local IAM: ${opts.fn} called an unknown operation "${target}"`), { name: 'AccessDeniedException' });
        const input = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
        if (upstream === opts.dynamoEndpoint) checkDynamoCall(opts.fn, target.slice(DYNAMO.length), input, opts.names);
        else {
          if (typeof input.QueueUrl === 'string' && input.QueueUrl.startsWith(`${origin}/`)) {
            input.QueueUrl = sqsOrigin + input.QueueUrl.slice(origin.length);
            body = Buffer.from(JSON.stringify(input), 'utf8');
          }
          checkSqsCall(opts.fn, target.slice(SQS.length), input, opts.names);
        }
      } catch (error) {
        const message = (error as Error).message;
        res.writeHead(400, {
          'content-type': 'application/x-amz-json-1.0',
          'x-amzn-query-error': 'AccessDenied;Sender', // what SQS's JSON protocol adds
        });
        res.end(JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', message }));
        return;
      }
      const url = new URL(upstream);
      const forward = request(
        {
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: url.host, 'content-length': String(body.length) },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', (error) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`local IAM proxy: ${error.message}`);
      });
      forward.end(body);
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  server.keepAliveTimeout = 60_000;
  const port = await listenOnLoopback(server, 0);
  origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    queueUrlFor: (realUrl) => (realUrl.startsWith(`${sqsOrigin}/`) ? origin + realUrl.slice(sqsOrigin.length) : realUrl),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
