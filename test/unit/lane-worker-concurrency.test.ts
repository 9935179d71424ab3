/**
 * Two invocations of one lane worker in flight at once (a module Lambda would give two instances,
 * but one instance's module — and the local pollers' loops — may run them side by side): each
 * answers for its own batch. Before, the worker kept the batch processor and the batch's jobs in
 * module scope, so the second batch replaced the first's before the first had answered.
 * The jobs themselves are stand-ins (the runner is mocked): this is about the worker's bookkeeping.
 */
import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';

const gates = new Map<string, Promise<void>>();
vi.mock('../../functions/services/jobs/run.js', () => ({
  runJob: (job: { follower: string }) => gates.get(job.follower) ?? Promise.resolve(),
}));

const record = (id: string, follower: string): SQSRecord =>
  ({
    messageId: id,
    body: JSON.stringify({ kind: 'backfill', follower, followee: 'author' }),
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()) },
  }) as unknown as SQSRecord;

describe('a lane worker invoked twice at once', () => {
  it('reports each batch’s own failures, whatever the other batch did meanwhile', async () => {
    const { laneHandler } = await import('../../functions/handlers/lane-worker.js');
    const handler = laneHandler('followup');
    let release!: () => void;
    gates.set('slow', new Promise<void>((r) => (release = r)));
    gates.set('broken', Promise.reject(new Error('injected failure')));
    gates.get('broken')!.catch(() => undefined);

    // The first batch waits on its job; the second runs and fails meanwhile; then the first ends.
    const first = handler({ Records: [record('a-1', 'slow')] });
    const second = await handler({ Records: [record('b-1', 'broken'), record('b-2', 'fine')] });
    release();
    expect(second).toEqual({ batchItemFailures: [{ itemIdentifier: 'b-1' }] });
    expect(await first).toEqual({ batchItemFailures: [] });
  });
});
