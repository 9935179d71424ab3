/**
 * DynamoDB Local killed and restarted (persistent data) in the middle of a fan-out: the SQS
 * messages that failed meanwhile come back and the fan-out completes with one copy per follower.
 * Own persistent stack; the retry delay is long enough that the restart (several seconds, more on a
 * busy machine) fits inside the jobs' receive budget, as a Lambda visibility timeout would.
 * A second JVM with persistent storage; about a minute.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../local/dynamodb-local.js';
import { allDelivered, dataDir, post, seedFollowers, stack, startOwnStack, stopOwnStack, tally, uid } from '../support/own-stack.js';

let restarted: DynamoDbLocal | undefined;

beforeAll(async () => {
  await startOwnStack({ persistent: true, sqsRetryDelaySeconds: 10 });
}, 120_000);

afterAll(async () => {
  await restarted?.stop();
  await stopOwnStack();
});

describe('fan-out across a DynamoDB Local restart', () => {
  it('finishes a fan-out interrupted by a DynamoDB Local restart (persistent data)', async () => {
    const author = uid('restart');
    const followers = await seedFollowers(author, 1000);
    const p = await post(author);
    // Wait until copies are being written, then kill the JVM mid fan-out.
    for (const deadline = Date.now() + 120_000; ; ) {
      const t = await tally(followers.slice(0, 40), p.rangeKey);
      if (t.exact > 0) break;
      if (Date.now() > deadline) throw new Error('fan-out did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    process.kill(stack.dynamoPid, 'SIGKILL');
    const port = Number(new URL(stack.dynamoEndpoint).port);
    await new Promise((r) => setTimeout(r, 500));
    restarted = await startDynamoDbLocal({ port, dataDir: join(dataDir!, 'dynamodb') });
    const midway = await tally(followers, p.rangeKey);
    expect(midway.exact).toBeLessThan(followers.length); // it really was interrupted
    await allDelivered(followers, p.rangeKey, 180_000);
    console.log(`restart: ${midway.exact}/${followers.length} copies before the restart finished`);
  }, 360_000);
});
