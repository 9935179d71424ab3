/**
 * Exactly-once under everything Lambda does to a stream batch: identical redelivery, bisection in
 * either order, resume from a reported record, and a write that failed — before or after it
 * committed. The handler is called directly with Lambda-shaped records (so the test controls
 * delivery); values are read through the HTTP API. Each test owns a time region of verb `exo`.
 */
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { authorOfTimelinePk } from '../../functions/model/timeline-item.js';
import { dynamo } from '../../functions/platform/clients.js';
import { handler } from '../../functions/handlers/rollups.js';
import { type ActivityInput, copyItem, type FeedItem, originalItem, streamRecord } from '../support/seed-originals.js';
import { uid } from '../support/local.js';
import { type Points, readSeries, truth } from '../support/rollup-truth.js';

const SERIES = ['exo.count', 'exo.score.sum', 'exo.score.min', 'exo.score.max'];
const DAY = 86_400_000;
const MIN = 60_000;

/** A batch of `n` originals spread over 30 minutes of the region, with noise records mixed in. */
function makeBatch(regionDays: number, n: number) {
  const base = Math.floor((Date.now() - regionDays * DAY) / MIN) * MIN;
  const activities: ActivityInput[] = [];
  const records: DynamoDBRecord[] = [];
  for (let i = 0; i < n; i++) {
    const a: ActivityInput = {
      actor: uid('exo'),
      verb: 'exo',
      timeMs: base + ((i * 7) % 30) * MIN + (i % 50) * 1000,
      attributes: i % 5 === 4 ? { score: 'n/a' } : { score: (i * 37) % 101 - 50 },
    };
    activities.push(a);
    const original: FeedItem = originalItem(a);
    records.push(streamRecord('INSERT', original));
    // Noise that must not count: a fan-out copy, an update, a user delete, a TTL delete.
    if (i % 3 === 0) records.push(streamRecord('INSERT', copyItem(original, uid('follower'))));
    if (i % 4 === 0) records.push(streamRecord('MODIFY', { ...original, content: 'edited' }, original));
    if (i % 6 === 0) records.push(streamRecord('REMOVE', original));
    if (i % 7 === 0) records.push(streamRecord(i % 2 ? 'TTL' : 'UNKNOWN_TO_SDK_VERSION', copyItem(original, uid('f'))));
  }
  return { base, activities, records };
}

const deliver = (records: DynamoDBRecord[]) => handler({ Records: records } satisfies DynamoDBStreamEvent);

async function readAll(base: number): Promise<Record<string, Points>> {
  const out: Record<string, Points> = {};
  for (const s of SERIES) out[s] = await readSeries(s, base - MIN, base + 31 * MIN);
  return out;
}
const expected = (activities: ActivityInput[]) => Object.fromEntries(SERIES.map((s) => [s, truth(activities, s)]));
const originalsIn = (records: DynamoDBRecord[], all: { records: DynamoDBRecord[]; activities: ActivityInput[] }) => {
  // activities[i] is the i-th INSERT of a timeline original in the full batch
  const originals = all.records.filter((r) => r.eventName === 'INSERT' && authorOfTimelinePk(r.dynamodb?.NewImage?.pk?.S) !== undefined);
  const ids = new Set(records.map((r) => r.eventID));
  return all.activities.filter((_, i) => ids.has(originals[i]!.eventID));
};

describe('rollups: exactly once', () => {
  it('leaves every value unchanged when the same batch is delivered 3 times', async () => {
    const batch = makeBatch(10, 150);
    const want = expected(batch.activities);
    expect(want['exo.count']).not.toEqual({});
    for (let i = 0; i < 3; i++) {
      expect(await deliver(batch.records)).toEqual({ batchItemFailures: [] });
      expect(await readAll(batch.base)).toEqual(want);
    }
  });

  it('counts once when a batch is bisected after its first half succeeded, and when halves follow the whole', async () => {
    const one = makeBatch(11, 120);
    const half = Math.ceil(one.records.length / 2);
    const [first, second] = [one.records.slice(0, half), one.records.slice(half)];
    await deliver(first);
    expect(await readAll(one.base)).toEqual(expected(originalsIn(first, one)));
    await deliver(one.records); // the full batch after its first half succeeded
    expect(await readAll(one.base)).toEqual(expected(one.activities));
    await deliver(first);
    await deliver(second); // halves after the full batch
    expect(await readAll(one.base)).toEqual(expected(one.activities));

    const two = makeBatch(12, 120);
    await deliver(two.records);
    const quarter = Math.ceil(two.records.length / 4);
    await deliver(two.records.slice(quarter * 2)); // second half, then a resumed tail, then the first half
    await deliver(two.records.slice(quarter * 3));
    await deliver(two.records.slice(0, quarter * 2));
    expect(await readAll(two.base)).toEqual(expected(two.activities));
  });

  describe('with a fault injected into the SDK client', () => {
    let remove: (() => void) | undefined;
    afterEach(() => remove?.());

    /** Fail the `nth` TransactWriteItems call: before it is sent, or after it committed. */
    function injectFault(nth: number, when: 'before' | 'after') {
      let calls = 0;
      const name = `fault-${uid()}`;
      dynamo.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName !== 'TransactWriteItemsCommand' || ++calls !== nth) return next(args);
          if (when === 'before') throw new Error('injected: connection reset before send');
          await next(args);
          throw new Error('injected: response lost after commit');
        },
        { step: 'initialize', name },
      );
      remove = () => dynamo.middlewareStack.remove(name);
    }

    it.each(['before', 'after'] as const)('counts once after a mid-batch write failure (%s commit) and Lambda\'s retry', async (when) => {
      const batch = makeBatch(when === 'before' ? 13 : 14, 200); // several chunks per batch
      injectFault(2, when);
      const res = (await deliver(batch.records)) as DynamoDBBatchResponse;
      remove!();
      expect(res.batchItemFailures).toHaveLength(1);
      const from = batch.records.findIndex((r) => r.dynamodb!.SequenceNumber === res.batchItemFailures[0]!.itemIdentifier);
      expect(from).toBeGreaterThan(0);
      const partial = await readAll(batch.base);
      if (when === 'before') expect(partial).not.toEqual(expected(batch.activities));
      // Lambda retries from the reported record, bisecting what fails again: deliver the rest in
      // small pieces, so no piece lines up with a chunk of the first attempt.
      const rest = batch.records.slice(from);
      for (let i = 0; i < rest.length; i += 40) {
        expect(await deliver(rest.slice(i, i + 40))).toEqual({ batchItemFailures: [] });
      }
      expect(await readAll(batch.base)).toEqual(expected(batch.activities));
      // ...and a whole-batch retry (the throw path) changes nothing.
      await deliver(batch.records);
      expect(await readAll(batch.base)).toEqual(expected(batch.activities));
    });
  });
});
