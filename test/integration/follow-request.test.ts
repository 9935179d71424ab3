/**
 * What one follow request costs (services/follow-graph.ts): everything its transaction decides on —
 * whether the followee is pulled (on the shard the follow counts on), the caller's mute of them,
 * their erase mark — comes from one BatchGet; then the transaction, the check for originals, the
 * pending flag's clear (nothing to backfill) and the threshold re-read. On a stack without pollers,
 * so the metered calls are the request's alone (its notify job waits on the queue).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapacityMeter, meterCapacity } from '../../bench/capacity.js';
import { classifyCalls } from '../../bench/context.js';
import { api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { own, stack, startOwnStack, stopOwnStack } from '../support/own-stack.js';

let meter: CapacityMeter;

beforeAll(async () => {
  await startOwnStack({ persistent: false, sqsRetryDelaySeconds: 1, pollers: false });
  meter = meterCapacity((await import('../../functions/platform/clients.js')).dynamo, classifyCalls(stack.tableNames));
}, 120_000);

afterAll(stopOwnStack);

const callsOf = (spent: ReturnType<CapacityMeter['since']>) => Object.fromEntries(Object.entries(spent.tags).map(([tag, t]) => [tag, t.calls]));

describe('a follow request', () => {
  it('reads what its transaction decides on in one BatchGet', async () => {
    const [fan, quiet] = [uid('fan'), uid('quiet')];
    const before = meter.snapshot();
    expect((await api('PUT', `/following/${quiet}`, { on: own, as: fan })).status).toBe(204);
    expect(callsOf(meter.since(before))).toEqual({
      'batch get': 1, // the followee's shard (pulled), the caller's mute, the erase mark
      transaction: 1,
      'timeline query': 1, // has the followee posted (after the commit: no backfill to queue)
      'graph update': 1, // so the edge owes no backfill
      'graph query': 1, // the follower count, against the pull threshold
    });
  });

  it('of a pulled user commits at its first attempt: the shard it read holds the flag its transaction checks', async () => {
    const [fan, celeb] = [uid('fan'), uid('celeb')];
    const { setPulled } = await import('../../functions/stores/follow-store.js');
    await setPulled(celeb, true);
    const before = meter.snapshot();
    expect((await api('PUT', `/following/${celeb}`, { on: own, as: fan })).status).toBe(204);
    const spent = callsOf(meter.since(before));
    expect(spent.transaction).toBe(1);
    expect(spent['batch get']).toBe(1);
    const { body } = await api('GET', `/users/${celeb}`, { on: own, as: fan });
    expect(body).toMatchObject({ followers: 1 });
  });
});
