/**
 * DynamoDB Local killed and restarted (persistent data) in the middle of a fan-out: the SQS
 * messages that failed meanwhile come back and the fan-out completes with one copy per follower.
 * "In the middle" is made, not waited for: the worker's copy writes are held at a gate after the
 * first one (support/hold-copies.ts), the JVM is killed there, and the held writes go to a dead port.
 * Own persistent stack. Once the held jobs have failed, the fan-out lanes' pollers are held still
 * until the restarted JVM answers: the failed messages wait in their queue (as they would for a
 * Lambda visibility timeout longer than the outage) instead of burning their receives on a dead
 * port, so the retry delay can be short without racing the restart (several seconds, more on a
 * busy machine) against maxReceiveCount. A second JVM with persistent storage.
 */
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laneSource } from '../../lib/defs/lanes.js';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../local/dynamodb-local.js';
import { holdCopiesOf, installCopyHold } from '../support/hold-copies.js';
import { mustPost } from '../support/api.js';
import { seedFollowers } from '../support/graph-seed.js';
import { uid } from '../support/ids.js';
import { allDelivered, dataDir, own, stack, startOwnStack, stopOwnStack, tally } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

/** Whether something listens on 127.0.0.1:port. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

let restarted: DynamoDbLocal | undefined;

beforeAll(async () => {
  await startOwnStack({ persistent: true, sqsRetryDelaySeconds: 1 });
  installCopyHold((await import('../../functions/platform/clients.js')).dynamo);
}, 120_000);

afterAll(async () => {
  await stopOwnStack(); // its pollers first: they would only meet a stopped JVM otherwise
  await restarted?.stop();
});

describe('fan-out across a DynamoDB Local restart', () => {
  it('finishes a fan-out interrupted by a DynamoDB Local restart (persistent data)', async () => {
    const author = uid('restart');
    // One page, four 25-item copy writes: the first goes through, three are held — the fan-out is
    // both begun and unfinished when the JVM dies. One page only: a continuation job (a second
    // page, 500+ followers) crossing the restart is a message like the ones held here, at several
    // seconds more per tally; the paging itself is fanout.test.ts's.
    const followers = await seedFollowers(author, 100, { on: own });
    // One copy write goes through, the next ones wait at the gate: the fan-out is under way.
    const gate = holdCopiesOf(author, { after: 1 });
    const p = await mustPost(author, { verb: 'post' }, own);
    await gate.atGate;
    // The write that went through lands (it may still be in flight when the next one reaches the gate)…
    await eventually(async () => (await tally(followers, p.rangeKey)).exact > 0, { what: 'the first copy write', timeoutMs: 60_000 });
    const midway = await tally(followers, p.rangeKey);
    expect(midway.exact).toBeLessThan(followers.length); // …and no other: it really is interrupted
    process.kill(stack.dynamoPid, 'SIGKILL');
    const port = Number(new URL(stack.dynamoEndpoint).port);
    await eventually(async () => !(await accepts(port)), { what: 'the killed JVM to let go of its port', timeoutMs: 60_000 });
    gate.open(); // the held writes meet a dead port: their jobs fail and come back
    // Held once the batches under way (the failing jobs) are settled; none starts until the JVM is back.
    // Every fan-out lane: a job that waited a second for its poller (a busy machine) was handed on
    // to fanoutBacklog and fails there (CI beside two busy loops: it burned its five receives on the
    // dead port while only fanout was held, and 25 of 100 copies were made).
    const resumes = await Promise.all((['fanout', 'fanoutBacklog', 'fanoutTail'] as const).map((lane) => stack.pauseSource(laneSource(lane))));
    restarted = await startDynamoDbLocal({ port, dataDir: join(dataDir!, 'dynamodb') });
    for (const resume of resumes) resume();
    await allDelivered(followers, p.rangeKey, 180_000);
    console.log(`restart: ${midway.exact}/${followers.length} copies before the restart finished`);
  }, 360_000);
});
