/** The SQS-compatible server (`local-aws-sqs`), in this process, on loopback. */
import type { Server } from 'node:http';
import { createSqsServer } from 'local-aws-sqs';
import { localAccountId, localRegion } from './aws-local.js';
import { announceSend } from './sqs-activity.js';

export interface SqsLocal {
  readonly endpoint: string;
  stop(): Promise<void>;
}

export async function startSqsServer(opts: { port: number }): Promise<SqsLocal> {
  const server: Server = await createSqsServer({
    port: opts.port,
    hostname: '127.0.0.1',
    region: localRegion,
    accountId: localAccountId,
    // Restarting the stack recreates queues at once; AWS's 60 s rule would only get in the way.
    emulateQueueCreationLifecycle: false,
  });
  // Wake idle pollers on every send, as Lambda's long-polling pollers would be (sqs-activity.ts).
  server.on('request', (req) => {
    if (String(req.headers['x-amz-target'] ?? '').startsWith('AmazonSQS.SendMessage')) announceSend();
  });
  return {
    endpoint: `http://127.0.0.1:${opts.port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
