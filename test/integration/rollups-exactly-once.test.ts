/**
 * Exactly-once under everything Lambda does to a tumbling window of a stream shard: invocations
 * retried whole or bisected (halves with new identities) with the state they had, records
 * delivered again within the window and after it was written (a lost checkpoint), a final
 * invocation whose BatchWriteItem fails midway — before or after a call committed — or whose
 * commit mark fails, a final invocation carrying records that is bisected, a state written early
 * for its size, and a re-driven range replayed after later windows moved on. The handler is called
 * directly with Lambda-shaped window events (so the test controls delivery); rollups and activity
 * windows are read through the HTTP API. Each test owns a time region of verb `exo`, its own
 * shard, and its own actors.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { erasureKey } from '../../functions/model/erasure.js';
import { authorOfTimelinePk } from '../../functions/model/timeline-item.js';
import { dynamo } from '../../functions/platform/clients.js';
import { handler } from '../../functions/handlers/rollups.js';
import { applyWindowEvent } from '../../functions/services/rollups/apply-windows.js';
import { readConfig, readWindowConfig } from '../../lib/defs/config.js';
import type { DynamoDBStreamWindowEvent, WindowStateJson } from '../../lib/defs/stream-window.js';
import { type ActivityInput, copyItem, type FeedItem, originalItem, streamRecord } from '../support/seed-originals.js';
import { ADMIN, api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { type Points, readSeries, truth } from '../support/rollup-truth.js';

const SERIES = ['exo.count', 'exo.score.sum', 'exo.score.min', 'exo.score.max'];
const DAY = 86_400_000;
const MIN = 60_000;

interface Batch {
  readonly base: number;
  /** Every original, in stream order. */
  readonly activities: ActivityInput[];
  readonly records: DynamoDBRecord[];
  /** The actors whose recent activities feed their activity windows. */
  readonly actors: string[];
}

/**
 * `n` originals, with noise records mixed in: most in a 30-minute stretch `regionDays` ago (the
 * rollup series), every fourth one by one of 5 actors of the test within the last 90 minutes (their
 * activity windows).
 */
function makeBatch(regionDays: number, n: number): Batch {
  const base = Math.floor((Date.now() - regionDays * DAY) / MIN) * MIN;
  const actors = Array.from({ length: 5 }, () => uid('exo'));
  const activities: ActivityInput[] = [];
  const records: DynamoDBRecord[] = [];
  for (let i = 0; i < n; i++) {
    const recent = i % 4 === 3;
    const a: ActivityInput = recent
      ? { actor: actors[i % 5]!, verb: 'exo_recent', timeMs: Date.now() - (i % 90) * MIN }
      : {
          actor: uid('exo'),
          verb: 'exo',
          timeMs: base + ((i * 7) % 30) * MIN + (i % 50) * 1000,
          attributes: i % 5 === 4 ? { score: 'n/a' } : { score: ((i * 37) % 101) - 50 },
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
  return { base, activities, records, actors };
}

/** One stream shard of its own, driven as Lambda drives a tumbling window. */
class Shard {
  readonly arn = `arn:aws:dynamodb:us-east-1:000000000000:table/exo-${uid('t')}/stream/2026-11-23T00:00:00.000`;
  readonly id = `shardId-${uid('exo')}`;
  private windowStart = Date.now();

  /** A new window (its first invocation gets `{}`, or `state` — a re-drive's replay start). */
  open(state: WindowStateJson = {}) {
    this.windowStart += 120_000;
    return new Window(this, this.windowStart, state);
  }
}

class Window {
  constructor(
    private readonly shard: Shard,
    private readonly startMs: number,
    /** What the last successful invocation returned: Lambda hands it to the next one. */
    public state: WindowStateJson,
  ) {}

  event(records: DynamoDBRecord[], final: boolean): DynamoDBStreamWindowEvent {
    return {
      Records: records,
      window: { start: new Date(this.startMs).toISOString(), end: new Date(this.startMs + 120_000).toISOString() },
      state: this.state,
      shardId: this.shard.id,
      eventSourceARN: this.shard.arn,
      isFinalInvokeForWindow: final,
      isWindowTerminatedEarly: false,
    };
  }

  /** An invocation that succeeds: its state becomes the window's. */
  async add(records: DynamoDBRecord[]): Promise<void> {
    const res = await handler(this.event(records, false));
    expect(res.batchItemFailures).toEqual([]);
    this.state = res.state;
  }

  /** The final invocation; throws what the handler throws (Lambda then retries it with the same state). */
  async close(records: DynamoDBRecord[] = []): Promise<void> {
    const res = await handler(this.event(records, true));
    expect(res).toEqual({ state: {}, batchItemFailures: [] });
  }

  /** Everything in batches of `size`, then the final invocation. */
  async deliver(records: DynamoDBRecord[], size = 60): Promise<void> {
    for (let i = 0; i < records.length; i += size) await this.add(records.slice(i, i + size));
    await this.close();
  }
}

async function readAll(base: number): Promise<Record<string, Points>> {
  const out: Record<string, Points> = {};
  for (const s of SERIES) out[s] = await readSeries(s, base - MIN, base + 31 * MIN);
  return out;
}
const activityTotal = async (actor: string) => {
  const res = await api<{ total: number }>('GET', `/users/${actor}/activity?window=3h`, { as: uid('reader'), scope: ADMIN });
  expect(res.status).toBe(200);
  return res.body.total;
};
/** What the API says: every rollup series of the region, and each actor's 3 h activity total. */
const observed = async (b: Batch) => ({ rollups: await readAll(b.base), windows: await Promise.all(b.actors.map(activityTotal)) });
/** What it should say if exactly `activities` were counted. */
const expected = (b: Batch, activities = b.activities) => ({
  rollups: Object.fromEntries(SERIES.map((s) => [s, truth(activities, s)])),
  windows: b.actors.map((actor) => activities.filter((a) => a.actor === actor).length),
});
const originalsIn = (records: DynamoDBRecord[], b: Batch) => {
  // activities[i] is the i-th INSERT of a timeline original in the full batch
  const originals = b.records.filter((r) => r.eventName === 'INSERT' && authorOfTimelinePk(r.dynamodb?.NewImage?.pk?.S) !== undefined);
  const ids = new Set(records.map((r) => r.eventID));
  return b.activities.filter((_, i) => ids.has(originals[i]!.eventID));
};

describe('rollups: exactly once per tumbling window', () => {
  it('counts a window once, and nothing when it is delivered again after it was written (a lost checkpoint)', async () => {
    const batch = makeBatch(10, 150);
    const want = expected(batch);
    expect(want.rollups['exo.count']).not.toEqual({});
    expect(want.windows.every((n) => n > 0)).toBe(true);
    const shard = new Shard();
    const w = shard.open();
    await w.deliver(batch.records);
    expect(await observed(batch)).toEqual(want);
    await w.close(); // the final invocation retried after it succeeded (its response lost)
    for (let i = 0; i < 2; i++) await shard.open().deliver(batch.records, 45 + i * 30);
    expect(await observed(batch)).toEqual(want);
  });

  it('counts once when invocations are retried whole or bisected with their state, in a window and after it', async () => {
    const one = makeBatch(11, 120);
    const shard = new Shard();
    const w = shard.open();
    const half = Math.ceil(one.records.length / 2);
    const [first, second] = [one.records.slice(0, half), one.records.slice(half)];
    await w.add(first.slice(0, 40));
    // An invocation of the rest fails (its response is lost: the state stays): Lambda bisects it.
    const failedState = w.state;
    await handler(w.event(one.records.slice(40), false));
    w.state = failedState;
    await w.add(one.records.slice(40, half));
    await w.add(first); // a redelivery within the window, overlapping what is counted
    await w.add(second);
    await w.add(one.records); // and the whole again
    await w.close();
    expect(await observed(one)).toEqual(expected(one));
    // Halves after the written window, in either order, in windows of their own.
    await shard.open().deliver(second);
    await shard.open().deliver(first);
    expect(await observed(one)).toEqual(expected(one));

    // A window closed after its first half: the next one counts the rest, whatever it is handed.
    const two = makeBatch(12, 120);
    const quarter = Math.ceil(two.records.length / 4);
    const next = new Shard();
    await next.open().deliver(two.records.slice(0, quarter * 2));
    expect(await observed(two)).toEqual(expected(two, originalsIn(two.records.slice(0, quarter * 2), two)));
    await next.open().deliver(two.records); // from the start again, as after a lost checkpoint
    expect(await observed(two)).toEqual(expected(two));
    await next.open().deliver(two.records.slice(quarter * 3));
    expect(await observed(two)).toEqual(expected(two));
  });

  describe('with a fault injected into the SDK client', () => {
    let remove: (() => void) | undefined;
    afterEach(() => remove?.());

    /** Fail the `nth` call of `command`: before it is sent, or after DynamoDB applied it. */
    function injectFault(command: string, nth: number, when: 'before' | 'after') {
      let calls = 0;
      const name = `fault-${uid('f')}`;
      dynamo.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName !== command || ++calls !== nth) return next(args);
          if (when === 'before') throw new Error('injected: connection reset before send');
          await next(args);
          throw new Error('injected: response lost after the write');
        },
        { step: 'initialize', name },
      );
      remove = () => dynamo.middlewareStack.remove(name);
    }

    it.each(['before', 'after'] as const)('counts once when the final write fails midway (%s a BatchWriteItem call) and Lambda retries it', async (when) => {
      const batch = makeBatch(when === 'before' ? 13 : 14, 200); // well over 25 items: several calls
      const shard = new Shard();
      const w = shard.open();
      for (let i = 0; i < batch.records.length; i += 50) await w.add(batch.records.slice(i, i + 50));
      injectFault('BatchWriteItemCommand', 3, when);
      await expect(w.close()).rejects.toThrow(/injected/);
      remove!();
      const partial = await observed(batch);
      // Before: the failed attempt left part of the window written. After: all of it (the response
      // of one call was lost), but no commit mark.
      if (when === 'before') expect(partial).not.toEqual(expected(batch));
      expect(partial.rollups['exo.count']).not.toEqual({});
      await w.close(); // Lambda retries the final invocation with the same state
      expect(await observed(batch)).toEqual(expected(batch));
      // ...and the records delivered again, bisected, in later windows change nothing.
      const later = shard.open();
      for (let i = 0; i < batch.records.length; i += 37) await later.add(batch.records.slice(i, i + 37));
      await later.close();
      expect(await observed(batch)).toEqual(expected(batch));
    });

    it('counts once when every row is written but the commit mark fails', async () => {
      const batch = makeBatch(15, 80);
      const shard = new Shard();
      const w = shard.open();
      await w.add(batch.records);
      injectFault('PutItemCommand', 1, 'before');
      await expect(w.close()).rejects.toThrow(/injected/);
      remove!();
      expect(await observed(batch)).toEqual(expected(batch)); // the rows are all there already
      await w.close();
      await shard.open().deliver(batch.records);
      expect(await observed(batch)).toEqual(expected(batch));
    });

    it('counts once when a final invocation carrying records fails midway and is retried bisected', async () => {
      const batch = makeBatch(16, 160);
      const half = Math.ceil(batch.records.length / 2);
      const shard = new Shard();
      const w = shard.open();
      await w.add(batch.records.slice(0, half));
      const late = batch.records.slice(half);
      injectFault('BatchWriteItemCommand', 4, 'after');
      await expect(w.close(late)).rejects.toThrow(/injected/);
      remove!();
      const quarter = Math.ceil(late.length / 2);
      await w.close(late.slice(0, quarter)); // each half retried with the same state
      await w.close(late.slice(quarter));
      expect(await observed(batch)).toEqual(expected(batch));
      await shard.open().deliver(batch.records);
      expect(await observed(batch)).toEqual(expected(batch));
    });

    it('counts once when a state grown past its budget is written at the next invocation and that write fails', async () => {
      const batch = makeBatch(17, 200);
      const shard = new Shard();
      const w = shard.open();
      const opts = {
        spec: readConfig('ROLLUPS'),
        rollupTtlMs: readConfig('ROLLUP_TTL'),
        partitions: readConfig('ROLLUP_PARTITIONS'),
        window: readWindowConfig(),
      };
      const invoke = async (records: DynamoDBRecord[], final = false) => {
        // A budget small enough that every state of more than a few records is written early.
        const out = await applyWindowEvent(w.event(records, final), { ...opts, nowMs: Date.now() }, 2_000);
        w.state = out.state;
        return out.written;
      };
      let early = 0;
      for (let i = 0; i < batch.records.length; i += 40) {
        const records = batch.records.slice(i, i + 40);
        if (i === 120) {
          injectFault('BatchWriteItemCommand', 1, 'after');
          await expect(invoke(records)).rejects.toThrow(/injected/); // the state is not advanced
          remove!();
          await invoke(records.slice(0, 20)); // Lambda bisects the failed invocation
          await invoke(records.slice(20));
          continue;
        }
        early += (await invoke(records)).segments;
      }
      expect(early).toBeGreaterThan(1);
      await invoke([], true);
      expect(await observed(batch)).toEqual(expected(batch));
    });

    it('counts a re-driven range once: the replay rewrites what the failed window left half-written and skips what was committed', async () => {
      const batch = makeBatch(18, 160);
      const after = makeBatch(19, 40);
      const shard = new Shard();
      const committed = batch.records.slice(0, 60);
      await shard.open().deliver(committed);
      // The next window's final write fails for good (its retries run out): part of it is written.
      const failed = shard.open();
      await failed.add(batch.records.slice(60));
      injectFault('BatchWriteItemCommand', 2, 'before');
      await expect(failed.close()).rejects.toThrow(/injected/);
      remove!();
      expect(await observed(batch)).not.toEqual(expected(batch));
      // Lambda moves on; later windows commit past the failed records.
      await shard.open().deliver(after.records);
      // The on-failure record names the failed window's range; a re-drive replays the whole of what it read back.
      const seq = (r: DynamoDBRecord) => r.dynamodb!.SequenceNumber!;
      const replay = shard.open({ replay: { from: seq(batch.records[0]!), to: seq(batch.records.at(-1)!) } });
      await replay.deliver(batch.records, 70);
      expect(await observed(batch)).toEqual(expected(batch));
      expect(await observed(after)).toEqual(expected(after));
    });
  });

  it('writes no activity entry for a user being erased (rollups still count the activity)', async () => {
    const batch = makeBatch(20, 40);
    const [erased, kept] = batch.actors;
    await doc.send(new PutCommand({ TableName: stack.tableNames.graph, Item: { ...erasureKey(erased!), done: false } }));
    await new Shard().open().deliver(batch.records);
    const want = expected(batch);
    const got = await observed(batch);
    expect(got.rollups).toEqual(want.rollups);
    expect(await activityTotal(erased!)).toBe(0);
    expect(want.windows[0]).toBeGreaterThan(0);
    expect(await activityTotal(kept!)).toBe(want.windows[1]);
  });
});
