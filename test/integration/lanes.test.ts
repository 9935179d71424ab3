/**
 * Job lanes on a stack of this file's own (pollers in this process): a backlog in one lane does not
 * delay another, work that can change nothing is not queued, and a follow burst's notifications are
 * folded per recipient. A backlog is made deterministic by holding its lane's poller still (no
 * timing): with one shared queue, a held consumer would hold every kind of job.
 */
import { GetQueueAttributesCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { followEdgeKey } from '../../functions/model/follow-edge.js';
import { profileKey } from '../../functions/model/profile.js';
import { forEachLimit } from '../../functions/platform/pool.js';
import { feedPartitionPrefix } from '../../lib/defs/key-prefixes.js';
import { type LaneId, lanes, laneSource } from '../../lib/defs/lanes.js';
import { api, mustPost } from '../support/api.js';
import { seedFollowers } from '../support/graph-seed.js';
import { uid } from '../support/ids.js';
import { doc, own, sqs, stack, startOwnStack, stopOwnStack, storedCopies } from '../support/own-stack.js';
import { eventually } from '../support/wait.js';

let transactWrites = 0;
/** Home-feed copy deletes the handlers sent in BatchWriteItem calls: the partition of each, by the copy's rk. */
const copyDeletes = new Map<string, string[]>();

beforeAll(async () => {
  // Pulled at 50 followers (the pull test); every other test here stays well below.
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, env: { FANOUT_PULL_THRESHOLD: '50' } });
  const handlerClients = await import('../../functions/platform/clients.js');
  handlerClients.dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand') transactWrites += 1;
      if (context.commandName === 'BatchWriteItemCommand') {
        type Request = { DeleteRequest?: { Key: Record<string, unknown> } };
        const requests = Object.values((args.input as { RequestItems: Record<string, Request[]> }).RequestItems).flat();
        for (const r of requests) {
          const rk = r.DeleteRequest?.Key.rk as { N?: string } | bigint | string | undefined;
          const pk = r.DeleteRequest?.Key.pk as { S?: string } | string | undefined;
          const partition = typeof pk === 'object' ? String(pk.S) : String(pk);
          if (rk !== undefined && partition.startsWith(feedPartitionPrefix.homeFeed)) {
            const key = typeof rk === 'object' ? String(rk.N) : String(rk);
            copyDeletes.set(key, [...(copyDeletes.get(key) ?? []), partition]);
          }
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'countWrites' },
  );
}, 120_000);

afterAll(stopOwnStack);

/** Messages waiting or in flight on a lane's queue. */
async function depth(lane: LaneId): Promise<number> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: stack.queueUrls[lane],
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0);
}

/**
 * A backlog's size: more than one round of the lane's pollers takes in (batch size × parallel
 * pollers — the mapping's MaximumConcurrency, 4 at most locally: local/stack.ts), so were the lanes
 * one queue, another lane's job would sit behind at least a full round. Held pollers take nothing,
 * so a bigger backlog proves nothing more; it only takes longer to send and drain.
 */
const backlogSize = (lane: LaneId) => lanes[lane].batchSize * Math.min(4, lanes[lane].maxConcurrency) + 10;

/** `count` jobs of `lane`, sent straight to its queue (valid jobs that find nothing to do). */
async function backlog(lane: LaneId, count: number, job: (i: number) => unknown): Promise<void> {
  const bodies = Array.from({ length: count }, (_, i) => JSON.stringify(job(i)));
  const batches = Array.from({ length: Math.ceil(bodies.length / 10) }, (_, b) => bodies.slice(b * 10, b * 10 + 10));
  await Promise.all(
    batches.map((batch) =>
      sqs.send(new SendMessageBatchCommand({ QueueUrl: stack.queueUrls[lane], Entries: batch.map((MessageBody, j) => ({ Id: String(j), MessageBody })) })),
    ),
  );
}

const hold = async (held: LaneId[]) => {
  const resumes = await Promise.all(held.map((lane) => stack.pauseSource(laneSource(lane))));
  return () => resumes.forEach((resume) => resume());
};

describe('lanes', () => {
  it('a post reaches its followers while every other lane holds a backlog', async () => {
    const release = await hold(['followup', 'notify', 'maintenance']);
    const [followups, notifies, maintenances] = [backlogSize('followup'), backlogSize('notify'), backlogSize('maintenance')];
    try {
      const ghost = uid('ghost');
      await Promise.all([
        backlog('followup', followups, (i) => ({ kind: 'backfill', follower: `${ghost}-${i}`, followee: ghost })),
        backlog('notify', notifies, (i) => ({
          kind: 'notify',
          recipient: ghost,
          events: [{ verb: 'like', object: `o${i}`, actor: `${ghost}-a`, id: `e${i}`, ticks: '1' }],
        })),
        backlog('maintenance', maintenances, () => ({ kind: 'pull', author: ghost })),
      ]);
      const author = uid('author');
      const [follower] = await seedFollowers(author, 1, { on: own });
      const { rangeKey } = await mustPost(author, { verb: 'post' }, own);
      await eventually(async () => (await storedCopies(follower!)).includes(rangeKey), { what: 'the post in its follower’s feed', timeoutMs: 60_000 });
      // Nothing of the other lanes ran: the post did not wait behind them.
      expect(await depth('followup')).toBe(followups);
      expect(await depth('notify')).toBe(notifies);
      expect(await depth('maintenance')).toBe(maintenances);
    } finally {
      release();
    }
    await eventually(async () => (await depth('followup')) + (await depth('notify')) + (await depth('maintenance')) === 0, {
      what: 'the backlogs drained',
      timeoutMs: 60_000,
    });
  });

  it('a follow’s backfill lands while the fan-out lane holds a backlog', async () => {
    const followee = uid('star');
    const { rangeKey } = await mustPost(followee, { verb: 'post' }, own);
    await eventually(async () => (await storedCopies(followee)).includes(rangeKey), { what: 'the own copy', timeoutMs: 60_000 });
    const release = await hold(['fanout']);
    const fanouts = backlogSize('fanout');
    try {
      await backlog('fanout', fanouts, () => ({ kind: 'fanout', author: followee, rk: '1', image: { rk: { N: '1' } } }));
      const follower = uid('fan');
      expect((await api('PUT', `/following/${followee}`, { on: own, as: follower })).status).toBe(204);
      await eventually(async () => (await storedCopies(follower)).includes(rangeKey), { what: 'the backfilled post', timeoutMs: 60_000 });
      // Nothing of the backlog ran (the post's own fan-out job may have joined it).
      expect(await depth('fanout')).toBeGreaterThanOrEqual(fanouts);
    } finally {
      release();
    }
    await eventually(async () => (await depth('fanout')) === 0, { what: 'the fan-out backlog drained', timeoutMs: 60_000 });
  });
});

describe('no idle work', () => {
  it('a follow of a user who never posted queues no backfill and leaves nothing pending', async () => {
    const release = await hold(['followup']);
    try {
      const [quiet, posted] = [uid('quiet'), uid('posted')];
      await mustPost(posted, { verb: 'post' }, own);
      const fan = uid('fan');
      expect((await api('PUT', `/following/${quiet}`, { on: own, as: fan })).status).toBe(204);
      expect(await depth('followup')).toBe(0);
      const { Item } = await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: followEdgeKey(fan, quiet), ConsistentRead: true }));
      expect(Item?.backfillPending).toBeUndefined();
      // The same follow of a user with a post does queue one (the check above can fail).
      expect((await api('PUT', `/following/${posted}`, { on: own, as: fan })).status).toBe(204);
      expect(await depth('followup')).toBe(1);
    } finally {
      release();
    }
  });
});

describe('no idle work: a pulled author’s delete', () => {
  it('deletes the own copy only: the followers’ copies were never written', async () => {
    const celeb = uid('celeb');
    const followers = await seedFollowers(celeb, 60, { on: own });
    await backlog('maintenance', 1, () => ({ kind: 'pull', author: celeb }));
    const profile = async () => (await doc.send(new GetCommand({ TableName: stack.tableNames.graph, Key: profileKey(celeb), ConsistentRead: true }))).Item;
    await eventually(async () => (await profile())?.pulledSince !== undefined, {
      what: 'the author pulled, with the instant it took effect',
      timeoutMs: 60_000,
    });
    // As if the pull took effect two seconds ago — past the clock skew retract-copies.ts allows — so the
    // post below counts as made after it, without waiting for the wall clock.
    await doc.send(
      new UpdateCommand({
        TableName: stack.tableNames.graph,
        Key: profileKey(celeb),
        UpdateExpression: 'SET pulledSince = pulledSince - :d',
        ExpressionAttributeValues: { ':d': 2_000_000_000 },
      }),
    );
    const { id, rangeKey } = await mustPost(celeb, { verb: 'post' }, own);
    await eventually(async () => (await storedCopies(celeb)).includes(rangeKey), { what: 'the own copy', timeoutMs: 60_000 });
    expect(await storedCopies(followers[0]!)).toEqual([]); // pulled: no copy was written
    expect((await api('DELETE', `/activities/${id}`, { on: own, as: celeb })).status).toBe(204);
    await eventually(async () => !(await storedCopies(celeb)).includes(rangeKey), { what: 'the own copy retracted', timeoutMs: 60_000 });
    // The own copy's delete (sent again if the job is delivered twice: at least once), and none for
    // the 60 followers.
    expect(new Set(copyDeletes.get(rangeKey))).toEqual(new Set([homeFeedPartition(celeb)]));
  });
});

describe('notification folding', () => {
  it('a burst of follows of one user is applied a batch at a time, not a transaction per follow', async () => {
    const star = uid('star');
    const fans = Array.from({ length: 40 }, (_, i) => uid(`fan${i}`));
    const release = await hold(['notify']);
    try {
      // 8 at a time (the order does not matter: the lane is held until all 40 jobs are queued), well
      // within the follows one user's sharded follower counter takes in flight (profile.ts).
      await forEachLimit(fans, 8, async (fan) => expect((await api('PUT', `/following/${star}`, { on: own, as: fan })).status).toBe(204));
      expect(await depth('notify')).toBe(fans.length);
    } finally {
      transactWrites = 0;
      release();
    }
    await eventually(async () => (await api('GET', '/notifications', { on: own, as: star })).body?.items?.[0]?.actorCount === fans.length, {
      what: 'all 40 follows notified',
      timeoutMs: 60_000,
    });
    // One follow group. Unfolded it is a transaction per follow (40, more with lost races). Folded,
    // the 40 one-event jobs arrive in a few batches (the lane's parallel pollers share them), each
    // applied in ≤ 20-event transactions: a handful, lost races included — well under half.
    expect(transactWrites).toBeLessThanOrEqual(fans.length / 2);
  });
});
