/**
 * The SQS-compatible server (`local-aws-sqs`), in this process, on loopback — behind a front that
 * applies the message rules the library skips (local/sqs-message-rules.ts: SQS's character set,
 * the 1 MiB message and batch limits in UTF-8 bytes), answering as SQS does: SendMessage with a
 * 400 (`InvalidMessageContents`, `InvalidParameterValue`), SendMessageBatch with a failed entry per
 * refused message (the others are sent) or a 400 `BatchRequestTooLong`. So a body the real queue
 * would refuse fails here too, in every test, not first in AWS.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createRequestHandler } from 'local-aws-sqs';
import { localAccountId, localRegion } from './aws-local.js';
import { listenOnLoopback } from './ports.js';
import { announceSend } from './sqs-activity.js';
import { type MessageRefusal, messageBytes, refusalOf, SQS_MAX_BYTES, type WireMessage } from './sqs-message-rules.js';

export interface SqsLocal {
  readonly endpoint: string;
  stop(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;
type Entry = WireMessage & { Id?: unknown };

/** On `port`, or without one on a port the OS picks (queue URLs name the port it got). */
export async function startSqsServer(opts: { port?: number } = {}): Promise<SqsLocal> {
  // Bound first: the library writes the port into every queue URL it makes.
  let handle: Handler | undefined;
  const server: Server = createServer((req, res) => {
    front(req, res, handle!, maxBytesOf).catch((error: unknown) => {
      console.error('local sqs server failure', error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const port = await listenOnLoopback(server, opts.port ?? 0);
  const { requestHandler, service } = createRequestHandler({
    port,
    hostname: '127.0.0.1',
    region: localRegion,
    accountId: localAccountId,
    // Restarting the stack recreates queues at once; AWS's 60 s rule would only get in the way.
    emulateQueueCreationLifecycle: false,
  });
  const maxBytesOf = (queueUrl: unknown): number => {
    const name = typeof queueUrl === 'string' ? queueUrl.split('/').pop() : undefined;
    const queue = service.Queues.find((q: { QueueName: string }) => q.QueueName === name) as { MaximumMessageSize?: number } | undefined;
    return Math.min(queue?.MaximumMessageSize ?? SQS_MAX_BYTES, SQS_MAX_BYTES);
  };
  handle = requestHandler;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function front(req: IncomingMessage, res: ServerResponse, handle: Handler, maxBytesOf: (queueUrl: unknown) => number): Promise<void> {
  const body = await readAll(req);
  const action = actionOf(req, body);
  if (action !== 'SendMessage' && action !== 'SendMessageBatch') return handle(replayOf(req, body), res);
  const json = isJson(req);
  const input = json ? parseJson(body) : formInput(body, action);
  if (!input) return handle(replayOf(req, body), res); // malformed: the library answers as it does
  const maxBytes = maxBytesOf(input.QueueUrl);
  // The messages sent: the one, or the batch's entries.
  const entries: Entry[] = action === 'SendMessage' ? [input] : Array.isArray(input.Entries) ? (input.Entries as Entry[]) : [];

  if (action === 'SendMessage') {
    const refusal = refusalOf(input, maxBytes);
    if (refusal) return refuse(res, json, 400, refusal);
  } else {
    const total = entries.reduce((sum, e) => sum + messageBytes(e), 0);
    if (total > SQS_MAX_BYTES) {
      return refuse(res, json, 400, { code: 'BatchRequestTooLong', message: `Batch requests cannot be longer than ${SQS_MAX_BYTES} bytes.` });
    }
    const refused = entries.flatMap((e) => {
      const r = refusalOf(e, maxBytes);
      return r ? [{ Id: e.Id, Code: r.code, Message: r.message, SenderFault: true }] : [];
    });
    if (refused.length > 0) {
      if (!json) return refuse(res, json, 400, { code: refused[0]!.Code, message: refused[0]!.Message });
      const kept = entries.filter((e) => !refused.some((r) => r.Id === e.Id));
      if (kept.length === 0) return sendJson(res, 200, { Failed: refused });
      // The library sends the rest; its answer gains the refused entries.
      mergeFailures(res, refused);
      await handle(replayOf(req, Buffer.from(JSON.stringify({ ...input, Entries: kept }))), res);
      return announceVisible(input.QueueUrl, kept);
    }
  }
  await handle(replayOf(req, body), res);
  announceVisible(input.QueueUrl, entries);
}

/**
 * Wakes the queue's idle pollers, as Lambda's long polls would be (sqs-activity.ts) — unless every
 * message sent is delayed: none is there to receive yet, and the first loop finds it once visible.
 */
function announceVisible(queueUrl: unknown, sent: readonly object[]): void {
  const delayed = (m: object) => 'DelaySeconds' in m && Number(m.DelaySeconds) > 0;
  if (typeof queueUrl === 'string' && sent.some((m) => !delayed(m))) announceSend(queueUrl);
}

const isJson = (req: IncomingMessage) => String(req.headers['content-type'] ?? '').startsWith('application/x-amz-json');

function actionOf(req: IncomingMessage, body: Buffer): string | undefined {
  if (isJson(req)) return String(req.headers['x-amz-target'] ?? '').split('.')[1];
  return new URLSearchParams(body.toString('utf8')).get('Action') ?? undefined;
}

function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The query protocol's form, as the JSON protocol's shape (bodies and ids only: what the rules read). */
function formInput(body: Buffer, action: string): Record<string, unknown> {
  const form = new URLSearchParams(body.toString('utf8'));
  if (action === 'SendMessage') return { QueueUrl: form.get('QueueUrl'), MessageBody: form.get('MessageBody') ?? undefined };
  const entries = new Map<string, Entry>();
  for (const [key, value] of form) {
    const m = /^SendMessageBatchRequestEntry\.(\d+)\.(Id|MessageBody)$/.exec(key);
    if (m) entries.set(m[1]!, { ...entries.get(m[1]!), [m[2]!]: value });
  }
  return { QueueUrl: form.get('QueueUrl'), Entries: [...entries.values()] };
}

/** SQS's error answer in either protocol. */
function refuse(res: ServerResponse, json: boolean, status: number, refusal: MessageRefusal | { code: string; message: string }): void {
  // The query-protocol code SQS names the error by (what the SDK reports as its name).
  const queryCode = refusal.code === 'BatchRequestTooLong' ? `AWS.SimpleQueueService.${refusal.code}` : refusal.code;
  res.setHeader('x-amzn-query-error', `${queryCode};Sender`);
  if (json) return sendJson(res, status, { __type: `com.amazonaws.sqs#${refusal.code}`, message: refusal.message });
  res.writeHead(status, { 'content-type': 'text/xml' });
  res.end(
    `<?xml version="1.0"?><ErrorResponse xmlns="http://queue.amazonaws.com/doc/2012-11-05/"><Error><Type>Sender</Type><Code>${queryCode}</Code>` +
      `<Message>${refusal.message.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</Message><Detail/></Error><RequestId>local</RequestId></ErrorResponse>`,
  );
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
  res.end(JSON.stringify(body));
}

/** Make the library's SendMessageBatch answer (JSON) also list `failed`. */
function mergeFailures(res: ServerResponse, failed: readonly object[]): void {
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    const parsed = typeof chunk === 'string' ? (parseJson(Buffer.from(chunk)) ?? {}) : {};
    return end(JSON.stringify({ ...parsed, Failed: [...((parsed.Failed as object[] | undefined) ?? []), ...failed] }));
  }) as ServerResponse['end'];
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The request again, its body already read: what the library's handler reads from. */
function replayOf(req: IncomingMessage, body: Buffer): IncomingMessage {
  return Object.assign(Readable.from(body.length ? [body] : []), {
    headers: req.headers,
    method: req.method,
    url: req.url,
    httpVersion: req.httpVersion,
  }) as unknown as IncomingMessage;
}
