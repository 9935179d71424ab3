/**
 * Lambda's instance model in the local runtime (local/instances.ts): a lane's poll loops invoke
 * its function concurrently, and each concurrent invocation runs in an instance of its own — an
 * instance never has two invocations in flight, and no more instances start than invocations
 * were in flight at once (idle ones serve later invocations warm). The function is a probe
 * (test/support/instance-probe-handler.ts) whose module counts its invocations in flight; it is
 * fed by the real SQS poller from the local SQS server, and its invocations hold at a barrier until
 * two are in flight together. Before, every loop invoked one shared module: it saw two at once.
 * A cache made per instance (platform/instance-scope.ts) in a module the entry imports, which the
 * process shares, is still one per instance, as in Lambda.
 */
import { CreateQueueCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FunctionId, SqsSourceDef } from '../../lib/defs/index.js';
import { localAccountId, localCredentials, localRegion } from '../../local/aws-local.js';
import { startSqsPoller } from '../../local/sqs-poller.js';
import { type SqsLocal, startSqsServer } from '../../local/sqs-server.js';
import { invocationsEnded, probeReport, resetProbe } from '../support/instance-probe.js';

// The probe joins the function definitions the local runtime loads entries from.
vi.mock('../../lib/defs/functions.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../lib/defs/functions.js')>();
  const probe = { ...actual.functions.health, id: 'instanceProbe', entry: 'test/support/instance-probe-handler.ts' };
  return { ...actual, functions: { ...actual.functions, instanceProbe: probe } };
});

const probeFn = 'instanceProbe' as FunctionId;
let server: SqsLocal;
let sqs: SQSClient;

beforeAll(async () => {
  server = await startSqsServer();
  sqs = new SQSClient({ region: localRegion, credentials: localCredentials, endpoint: server.endpoint });
});
afterAll(async () => {
  sqs?.destroy();
  await server?.stop();
});

describe('a lane polled by concurrent loops', () => {
  it('runs each concurrent invocation in an instance of its own, and reuses idle instances', async () => {
    const concurrency = 2;
    const messages = 6;
    const name = `instance-probe-${crypto.randomUUID()}`;
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name }));
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl,
        Entries: Array.from({ length: messages }, (_, i) => ({ Id: String(i), MessageBody: `job ${i}` })),
      }),
    );
    resetProbe(concurrency); // every invocation holds until two are in flight together
    const source = { kind: 'sqs', id: 'instanceProbe', fn: probeFn, batchSize: 1 } as SqsSourceDef;
    const poller = startSqsPoller({ source, sqs, queueUrl: QueueUrl!, queueArn: `arn:aws:sqs:${localRegion}:${localAccountId}:${name}`, concurrency });
    try {
      await invocationsEnded(messages);
    } finally {
      await poller.stop();
    }
    const report = probeReport();
    expect(report.mostInFlight).toBe(concurrency); // the overlap happened
    expect(report.mostInOneInstance).toBe(1); // …never within one instance
    expect(report.instances).toBe(concurrency); // as many as were in flight, then warm reuse for the other 4
    // A cache a service keeps across invocations is its instance's, though the module is the process's.
    expect(report.cachesPerInstance).toEqual([1, 1]);
    expect(report.caches).toBe(concurrency);
  });
});
