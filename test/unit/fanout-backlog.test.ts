/**
 * Fresh posts first (services/jobs/backlog.ts): a lane with a backlog hands on, unrun, the jobs
 * that waited in its queue past FANOUT_BACKLOG_AFTER, and runs the rest; a job leaves the batch
 * only once the backlog queue took it. The queue is replaced by a list, the clock is the caller's.
 */
import type { SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';

const sent = vi.hoisted(() => ({ calls: [] as { queue: string; bodies: string[] }[], refuse: new Set<number>() }));
vi.mock('../../functions/stores/job-queue.js', () => ({
  sendMessages: async (queue: string, bodies: readonly string[]) => {
    sent.calls.push({ queue, bodies: [...bodies] });
    return bodies.flatMap((_, i) => (sent.refuse.has(i) ? [i] : []));
  },
}));

let backlog: typeof import('../../functions/services/jobs/backlog.js');
beforeAll(async () => {
  process.env.FANOUT_BACKLOG_AFTER = '1s';
  backlog = await import('../../functions/services/jobs/backlog.js');
});

const NOW = 1_800_000_000_000;
/** A fanout job's body (its own rk per record), as the outbox sends it. */
const fanoutBody = (id: string) =>
  JSON.stringify({ kind: 'fanout', author: 'alice', rk: String(100 + id.charCodeAt(0)), image: { rk: { N: String(100 + id.charCodeAt(0)) } } });
const record = (id: string, waitedMs: number, body = fanoutBody(id), receiveCount = 1): SQSRecord =>
  ({
    messageId: id,
    body,
    attributes: { SentTimestamp: String(NOW - waitedMs), ApproximateReceiveCount: String(receiveCount) },
  }) as unknown as SQSRecord;

describe('goesToBacklog', () => {
  it('only past the deadline, only where the lane has a backlog, never with off', () => {
    expect(backlog.goesToBacklog(999, 1000, 'fanoutBacklog')).toBe(false);
    expect(backlog.goesToBacklog(1000, 1000, 'fanoutBacklog')).toBe(true);
    expect(backlog.goesToBacklog(60_000, 1000, undefined)).toBe(false);
    expect(backlog.goesToBacklog(60_000, undefined, 'fanoutBacklog')).toBe(false);
    expect(backlog.goesToBacklog(0, 0, 'fanoutBacklog')).toBe(true); // 0s: every job (the tests' way to run the backlog path)
    // A message that came back runs where it is (as a redelivery it takes back what it may have written).
    expect(backlog.goesToBacklog(60_000, 1000, 'fanoutBacklog', 2)).toBe(false);
  });
});

describe('handOnStale', () => {
  it('hands the stale jobs of a fanout batch to fanoutBacklog in one send, marked late and otherwise unchanged, and runs the fresh', async () => {
    sent.calls.length = 0;
    const records = [record('a', 5000), record('b', 10), record('c', 1500), record('d', 999)];
    const { run, handed } = backlog.handOnStale(records, 'fanout', NOW);
    expect(run.map((r) => r.messageId)).toEqual(['b', 'd']);
    expect([...handed.keys()]).toEqual(['a', 'c']);
    await Promise.all(handed.values());
    const late = (body: string) => ({ ...JSON.parse(body), late: true });
    expect(sent.calls.map((c) => ({ queue: c.queue, jobs: c.bodies.map((b) => JSON.parse(b)) }))).toEqual([
      { queue: 'fanoutBacklog', jobs: [late(records[0]!.body), late(records[2]!.body)] },
    ]);
  });

  it('fails (so its message comes back) only the job the backlog queue refused', async () => {
    sent.calls.length = 0;
    sent.refuse = new Set([1]);
    const { handed } = backlog.handOnStale([record('a', 5000), record('b', 5000)], 'fanout', NOW);
    await expect(handed.get('a')).resolves.toBeUndefined();
    await expect(handed.get('b')).rejects.toThrow(/refused/);
    sent.refuse = new Set();
  });

  it('keeps what the backlog does not run: another kind (queued before the lanes: forwarded from here), a body that does not parse, a redelivery', () => {
    sent.calls.length = 0;
    const notify =
      '{"kind":"notify","recipient":"bob","events":[{"kind":"follow","verb":"follow","object":"user:bob","actor":"alice","id":"f1","ticks":"17"}]}';
    const records = [record('n', 5000, notify), record('x', 5000, 'not json'), record('r', 5000, undefined, 2), record('f', 5000)];
    const { run, handed } = backlog.handOnStale(records, 'fanout', NOW);
    expect(run.map((r) => r.messageId)).toEqual(['n', 'x', 'r']);
    expect([...handed.keys()]).toEqual(['f']);
  });

  it('hands nothing on from a lane without a backlog, however long its jobs waited', () => {
    sent.calls.length = 0;
    const { run, handed } = backlog.handOnStale([record('a', 600_000)], 'fanoutTail', NOW);
    expect(run).toHaveLength(1);
    expect(handed.size).toBe(0);
    expect(sent.calls).toEqual([]);
  });
});
