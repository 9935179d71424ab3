/**
 * Time passes for a local user: `npm start` a day after the last run, on the same data directory.
 * Stream records live 24 hours (DynamoDB Local trims them as DynamoDB Streams does), and the shard
 * the pollers checkpointed is still open, with records after the checkpoint that no poller read
 * before the stop (here: written with the pollers off; in use, the copies and deletes that land
 * after a poller's last read). The restarted stack runs under libfaketime 25 hours ahead — the Node
 * process and the DynamoDB Local JVM alike — and must carry a new post to the author's followers,
 * their notifications and the rollups, saying once per source what the retention cost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, expect, it } from 'vitest';
import { localCredentials, localRegion } from '../../local/aws-local.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import { localTableName } from '../../local/names.js';
import type { Activity } from '../../functions/model/activity.js';
import { ADMIN, api, mustPost } from '../support/api.js';
import { type LaterStack, startLaterStack } from '../support/later-stack.js';
import type { TestStack } from '../support/stack-info.js';
import { eventually } from '../support/wait.js';

const root = mkdtempSync(join(tmpdir(), 'tickfeed-day-later-'));
const dataDir = join(root, '.tickfeed');
const env = { LOCAL_TUMBLING_WINDOW_SECONDS: '1' };
let later: LaterStack | undefined;

afterAll(async () => {
  await later?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Records after the shard's checkpoint that no poller reads: written to the feed table with DynamoDB Local alone. */
async function writeUnread(): Promise<void> {
  const dynamo = await startDynamoDbLocal({ dataDir: join(dataDir, 'dynamodb') });
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: localRegion, credentials: localCredentials, endpoint: dynamo.endpoint }));
  try {
    for (let rk = 1n; rk <= 3n; rk++) await doc.send(new PutCommand({ TableName: localTableName('feed'), Item: { pk: 'day-later#unread', rk } }));
  } finally {
    doc.destroy();
    await dynamo.stop();
  }
}

const feedIds = async (user: string, on: TestStack) => ((await api('GET', '/feed', { on, as: user })).body.items as Activity[]).map((i) => i.id);

it("npm start a day later carries a new post to followers, notifications and rollups, though the open shard's checkpoint was trimmed", async () => {
  // Day 0: bob follows alice, and her post reaches him (the pollers checkpoint the shard).
  const day0 = await startLaterStack({ dataDir, clock: '+0', env });
  try {
    expect((await api('PUT', '/following/alice', { on: day0, as: 'bob' })).status).toBe(204);
    const first = await mustPost('alice', { verb: 'post', content: 'day 0' }, day0);
    await eventually(async () => (await feedIds('bob', day0)).includes(first.id), { what: "alice's day-0 post in bob's feed" });
  } finally {
    await day0.stop();
  }
  // Still day 0: records after the checkpoint that no poller reads before the stop.
  await writeUnread();

  later = await startLaterStack({ dataDir, clock: '+25h', env });
  const on = later;
  const post = await mustPost('alice', { verb: 'post', content: 'a day later, @bob' }, on);
  await eventually(async () => (await feedIds('bob', on)).includes(post.id), { what: "alice's post of a day later in bob's feed" });
  await eventually(
    async () =>
      ((await api('GET', '/notifications', { on, as: 'bob' })).body.items as { verb: string; object: string }[]).some(
        (g) => g.verb === 'mention' && g.object === post.id,
      ),
    { what: "bob's mention notification" },
  );
  // The minute of the post counts it once (the day-0 posts are 25 hours before it).
  const minute = Date.parse(post.time);
  const from = new Date(minute - 5 * 60_000).toISOString();
  const to = new Date(minute + 2 * 60_000).toISOString();
  await eventually(
    async () => {
      const points = (await api('GET', '/rollups/post.count', { on, as: 'backend', scope: ADMIN, query: { granularity: 'minute', from, to } })).body.points as {
        value: number;
      }[];
      return points.reduce((sum, p) => sum + p.value, 0) === 1;
    },
    { what: 'the post counted once in its minute of post.count' },
  );
  // Each stream source said once that it went on from the oldest record left, and what it skipped.
  const said = on.lines.filter((l) => l.includes("past the stream's 24-hour retention"));
  expect(said.map((l) => /stream poller (\w+) shard/.exec(l)?.[1]).sort()).toEqual(['feedOutbox', 'feedRollups']);
  for (const line of said) expect(Number(/: (\d+) record\(s\) older than the retention were skipped/.exec(line)?.[1])).toBeGreaterThan(0);
  expect(on.lines.filter((l) => l.includes('read past the oldest stream record'))).toEqual([]);
}, 240_000);
