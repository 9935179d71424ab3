/**
 * The local stream poller against DynamoDB Local's real stream: it must behave like Lambda's
 * event source mapping (partial failures retried from the failed record, exhausted batches sent
 * to the on-failure queue and skipped) and resume from its checkpoint after a restart.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PurgeQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamSourceDef } from '../../lib/defs/index.js';
import { fileCheckpoints } from '../../local/checkpoints.js';
import type { Poller } from '../../local/poller.js';
import { streamArnOf } from '../../local/provision.js';
import { startStreamPoller } from '../../local/stream-poller.js';
import { doc, dynamo, eventually, sqs, stack, streams, uid } from '../support/local.js';

const source: StreamSourceDef = {
  kind: 'stream',
  id: 'pollerTest',
  table: 'feed',
  fn: 'outbox',
  batchSize: 10,
  startingPosition: 'TRIM_HORIZON',
  retryAttempts: 2,
  maxRecordAgeSeconds: 3600,
  bisectBatchOnError: true,
  reportBatchItemFailures: true,
  onFailure: 'streamFailures',
  filters: [], // every record (these tests write their own keys)
};

const pollers: Poller[] = [];
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((p) => p.stop()));
});

async function start(opts: {
  checkpointFile: string;
  sourceId?: string;
  invoke: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
}) {
  const poller = startStreamPoller({
    source: { ...source, id: opts.sourceId ?? source.id },
    streams,
    sqs,
    streamArn: await streamArnOf(dynamo, stack.tableNames.feed),
    onFailureQueueUrl: stack.queueUrls.streamFailures,
    checkpoints: fileCheckpoints(opts.checkpointFile),
    invoke: opts.invoke,
  });
  pollers.push(poller);
  return poller;
}

const pkOf = (r: DynamoDBRecord) => r.dynamodb?.Keys?.pk?.S;
const put = (pk: string, rk: number) => doc.send(new PutCommand({ TableName: stack.tableNames.feed, Item: { pk, rk: BigInt(rk) } }));

describe('local stream poller', () => {
  it('resumes from its checkpoint after a restart: nothing re-delivered, nothing skipped', async () => {
    const pk = uid('resume');
    const file = join(mkdtempSync(join(tmpdir(), 'tickfeed-cp-')), 'checkpoints.json');
    const seen: number[] = [];
    const record = async (event: DynamoDBStreamEvent) => {
      for (const r of event.Records) if (pkOf(r) === pk) seen.push(Number(r.dynamodb!.Keys!.rk!.N));
    };
    const first = await start({ checkpointFile: file, invoke: record });
    for (let i = 1; i <= 5; i++) await put(pk, i);
    await eventually(async () => seen.length === 5);
    await first.stop();
    pollers.splice(pollers.indexOf(first), 1);

    for (let i = 6; i <= 8; i++) await put(pk, i); // written while no poller runs
    await start({ checkpointFile: file, invoke: record });
    for (let i = 9; i <= 10; i++) await put(pk, i);
    await eventually(async () => seen.length >= 10);
    await new Promise((r) => setTimeout(r, 500)); // time for any duplicate to show up
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('retries from the first failed record, then sends an exhausted batch to the on-failure queue and moves on', async () => {
    const pk = uid('poison');
    const file = join(mkdtempSync(join(tmpdir(), 'tickfeed-cp-')), 'checkpoints.json');
    await sqs.send(new PurgeQueueCommand({ QueueUrl: stack.queueUrls.streamFailures }));
    const delivered: number[] = [];
    let flakyFailures = 0;
    await start({
      checkpointFile: file,
      sourceId: uid('src'),
      invoke: async (event) => {
        const failures: { itemIdentifier: string }[] = [];
        for (const r of event.Records) {
          if (pkOf(r) !== pk) continue;
          const rk = Number(r.dynamodb!.Keys!.rk!.N);
          const seq = r.dynamodb!.SequenceNumber!;
          if (rk === 2 && flakyFailures < 1) {
            flakyFailures++;
            failures.push({ itemIdentifier: seq }); // fails once, then succeeds
            break;
          }
          if (rk === 4) {
            failures.push({ itemIdentifier: seq }); // poison: always fails
            break;
          }
          delivered.push(rk);
        }
        return { batchItemFailures: failures };
      },
    });
    for (let i = 1; i <= 6; i++) await put(pk, i);
    await eventually(async () => delivered.includes(6), 30_000);
    // rk 1 once; 2 after one retry; 3 once even though its batch was retried; 4 never; 5, 6 once.
    expect(delivered).toEqual([1, 2, 3, 5, 6]);
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: stack.queueUrls.streamFailures, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    const infos = Messages.map((m) => JSON.parse(m.Body!).DDBStreamBatchInfo);
    expect(infos.some((i) => i.batchSize >= 1 && i.startSequenceNumber)).toBe(true);
  });
});
