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
const record = (id: string, waitedMs: number): SQSRecord =>
  ({
    messageId: id,
    body: `{"kind":"fanout","n":"${id}"}`,
    attributes: { SentTimestamp: String(NOW - waitedMs), ApproximateReceiveCount: '1' },
  }) as unknown as SQSRecord;

describe('goesToBacklog', () => {
  it('only past the deadline, only where the lane has a backlog, never with off', () => {
    expect(backlog.goesToBacklog(999, 1000, 'fanoutBacklog')).toBe(false);
    expect(backlog.goesToBacklog(1000, 1000, 'fanoutBacklog')).toBe(true);
    expect(backlog.goesToBacklog(60_000, 1000, undefined)).toBe(false);
    expect(backlog.goesToBacklog(60_000, undefined, 'fanoutBacklog')).toBe(false);
    expect(backlog.goesToBacklog(0, 0, 'fanoutBacklog')).toBe(true); // 0s: every job (the tests' way to run the backlog path)
  });
});

describe('handOnStale', () => {
  it('hands the stale jobs of a fanout batch to fanoutBacklog in one send, unchanged, and runs the fresh', async () => {
    sent.calls.length = 0;
    const records = [record('a', 5000), record('b', 10), record('c', 1500), record('d', 999)];
    const { run, handed } = backlog.handOnStale(records, 'fanout', NOW);
    expect(run.map((r) => r.messageId)).toEqual(['b', 'd']);
    expect([...handed.keys()]).toEqual(['a', 'c']);
    await Promise.all(handed.values());
    expect(sent.calls).toEqual([{ queue: 'fanoutBacklog', bodies: [records[0]!.body, records[2]!.body] }]);
  });

  it('fails (so its message comes back) only the job the backlog queue refused', async () => {
    sent.calls.length = 0;
    sent.refuse = new Set([1]);
    const { handed } = backlog.handOnStale([record('a', 5000), record('b', 5000)], 'fanout', NOW);
    await expect(handed.get('a')).resolves.toBeUndefined();
    await expect(handed.get('b')).rejects.toThrow(/refused/);
    sent.refuse = new Set();
  });

  it('hands nothing on from a lane without a backlog, however long its jobs waited', () => {
    sent.calls.length = 0;
    const { run, handed } = backlog.handOnStale([record('a', 600_000)], 'fanoutTail', NOW);
    expect(run).toHaveLength(1);
    expect(handed.size).toBe(0);
    expect(sent.calls).toEqual([]);
  });
});
