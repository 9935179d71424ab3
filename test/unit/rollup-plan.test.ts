/** Stream records → a window's aggregate → the items a segment writes, without the network. */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { copyOf } from '../../functions/model/feed-copy.js';
import { feedHeadKey } from '../../functions/model/feed-head.js';
import { newDiscriminator } from '../../functions/model/range-key.js';
import { timelineItem } from '../../functions/model/timeline-item.js';
import { isoFromTicks } from '../../functions/platform/clock.js';
import { activityOf, type PlanOptions, segmentItems } from '../../functions/services/rollups/plan.js';
import { addRecords, alreadyCounted, decodeState, encodeState, replayOf, startState } from '../../functions/services/rollups/state.js';
import { parseRollupSpec } from '../../lib/defs/rollup-spec.js';

const MIN = 60_000;
const now = Date.parse('2026-11-22T12:00:00.000Z');
const opts: PlanOptions = {
  spec: parseRollupSpec('play:sum(score),play:MAX(score)'),
  nowMs: now,
  rollupTtlMs: 90 * 86_400_000,
  partitions: 1,
  window: { bucketMs: 3_600_000, buckets: 24 },
};

type Item = Record<string, unknown>;
const image = (item: Item) => marshall(item, { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];

let n = 0;
function record(eventName: string, item: Item, old?: Item): DynamoDBRecord {
  n += 1;
  return {
    eventID: `ev${n}`,
    eventName,
    dynamodb: {
      SequenceNumber: String(1000 + n),
      ApproximateCreationDateTime: now / 1000,
      NewImage: eventName === 'REMOVE' ? undefined : image(item),
      OldImage: eventName === 'INSERT' ? undefined : image(old ?? item),
    },
  } as DynamoDBRecord;
}

/** An original as posting stores it (t#actor), its activity time `minute` minutes before `now`. */
function original(actor: string, minute: number, attributes?: Record<string, number | string | boolean>): Item {
  const ticks = BigInt(now) * 1_000_000n; // position: the server clock (not what rollups count by)
  const time = new Date(now - minute * MIN).toISOString();
  return timelineItem(actor, { verb: 'play', time, ...(attributes ? { attributes } : {}) }, ticks, newDiscriminator(), isoFromTicks(ticks), undefined);
}

describe('activityOf', () => {
  it('counts the INSERT of an original in its author’s timeline, by the activity’s own time', () => {
    const a = activityOf(record('INSERT', original('u1', 5, { score: 5, label: 'x', ok: true })));
    expect(a).toMatchObject({ actor: 'u1', verb: 'play', numbers: { score: 5 }, timeMs: now - 5 * MIN, eventId: `ev${n}`, seq: String(1000 + n) });
    expect(Object.keys(a!.numbers)).toEqual(['score']); // strings and booleans are not rollup values
  });

  it('ignores home-feed copies (the author’s own included) and heads', () => {
    const o = original('u1', 1);
    expect(activityOf(record('INSERT', copyOf(o, 'follower', undefined)))).toBeUndefined();
    expect(activityOf(record('INSERT', copyOf(o, 'u1', 1_900_000_000)))).toBeUndefined();
    expect(activityOf(record('INSERT', { ...feedHeadKey('u1'), pulled: new Set(['celeb']) }))).toBeUndefined();
  });

  it('ignores modifications (a DELETE mark included) and removals: deletes do not subtract', () => {
    const o = original('u1', 1);
    const marked = { ...o, deletedAt: '2026-11-22T12:00:01.000Z', expiresAt: 1_900_000_000 };
    expect(activityOf(record('MODIFY', marked, o))).toBeUndefined();
    expect(activityOf(record('MODIFY', o))).toBeUndefined();
    expect(activityOf(record('REMOVE', o))).toBeUndefined();
    expect(activityOf(record('UNKNOWN_TO_SDK_VERSION', o))).toBeUndefined();
  });

  it('falls back to the record’s creation time when the item’s time does not parse', () => {
    const a = activityOf(record('INSERT', { ...original('u1', 1), time: 'garbled' }));
    expect(a?.timeMs).toBe(now);
  });
});

describe('aggregating a window (state.ts, plan.ts)', () => {
  const records = Array.from({ length: 300 }, (_, i) => record('INSERT', original(`u${i % 40}`, i % 45, i % 3 ? { score: i } : { score: 'high' })));
  const acts = records.map((r) => activityOf(r)!);
  const fold = (batches: DynamoDBRecord[][], from: Parameters<typeof startState>[0] = {}) => {
    // Each batch goes through the JSON Lambda carries, as between invocations.
    let json = encodeState(startState(from));
    for (const batch of batches) {
      const state = decodeState(json)!;
      addRecords(state, batch, opts);
      json = JSON.parse(JSON.stringify(encodeState(state)));
    }
    return decodeState(json)!;
  };

  it('adds up per (series, minute) and per (actor, bucket), leaving out what is not a number', () => {
    const state = fold([records]);
    const { rows, entries } = segmentItems(state.agg, 'seg1', opts);
    const sum = (series: string) => rows.filter((r) => r.series === series).reduce((s, r) => s + Number(r.value), 0);
    expect(sum('play.count')).toBe(300);
    expect(sum('play.score.sum')).toBe(acts.reduce((s, a) => s + (a.numbers.score ?? 0), 0)); // "high" skipped
    expect(Math.max(...rows.filter((r) => r.series === 'play.score.max').map((r) => Number(r.value)))).toBe(299);
    expect(rows.filter((r) => r.series === 'play.count')).toHaveLength(45); // one row per minute touched
    expect(entries.reduce((s, e) => s + Number(e.count), 0)).toBe(300);
    expect(new Set(entries.map((e) => e.userId)).size).toBe(40);
    expect(state.first).toBe(records[0]!.dynamodb!.SequenceNumber);
    expect(state.last).toBe(records.at(-1)!.dynamodb!.SequenceNumber);
  });

  it('keys every item by the segment, so the same segment writes the same items', () => {
    const state = fold([records]);
    const items = segmentItems(state.agg, 'seg1', opts);
    expect(segmentItems(fold([records]).agg, 'seg1', opts)).toEqual(items);
    for (const item of [...items.rows, ...items.entries]) expect(item.sk.endsWith('#seg1')).toBe(true);
    const keys = [...items.rows, ...items.entries].map((r) => `${r.pk}|${r.sk}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(items.entries.every((e) => e.pk === `activity#${e.userId}` && e.kind === 'activity')).toBe(true);
  });

  it('is the same however the window was cut into batches, and skips redelivered records', () => {
    const whole = fold([records]);
    const cuts = fold([records.slice(0, 7), records.slice(7, 150), records.slice(150)]);
    expect(encodeState(cuts)).toEqual(encodeState(whole));
    // Lambda redelivers after a failed invocation: halves, overlaps, the whole again.
    const again = fold([records.slice(0, 100), records.slice(50, 200), records.slice(0, 300), records.slice(150)]);
    expect(encodeState(again)).toEqual(encodeState(whole));
  });

  it("skips what was counted before the segment began: at or below `after`, inside a replay's committed ranges", () => {
    const seqOf = (i: number) => records[i]!.dynamodb!.SequenceNumber!;
    const tail = fold([records], { after: seqOf(99) });
    expect(tail.first).toBe(seqOf(100));
    expect(segmentItems(tail.agg, 's', opts).entries.reduce((s, e) => s + Number(e.count), 0)).toBe(200);
    const replay = fold([records], {
      skip: [
        { first: seqOf(0), last: seqOf(49) },
        { first: seqOf(200), last: seqOf(299) },
      ],
    });
    expect([replay.first, replay.last]).toEqual([seqOf(50), seqOf(199)]);
    expect(segmentItems(replay.agg, 's', opts).entries.reduce((s, e) => s + Number(e.count), 0)).toBe(150);
    expect(alreadyCounted(replay, seqOf(120))).toBe(true); // inside its own segment now
  });

  it('counts non-activities into the range but not into the totals', () => {
    const o = original('u1', 1);
    const noise = [record('MODIFY', o), record('INSERT', copyOf(o, 'f', undefined)), record('REMOVE', o)];
    const state = fold([noise]);
    expect(state.first).toBe(noise[0]!.dynamodb!.SequenceNumber);
    expect(state.last).toBe(noise[2]!.dynamodb!.SequenceNumber);
    expect(segmentItems(state.agg, 's', opts)).toEqual({ rows: [], entries: [] });
  });

  it('leaves out rows past ROLLUP_TTL and entries whose bucket has left the window', () => {
    const state = fold([[record('INSERT', original('u1', 91 * 24 * 60)), record('INSERT', original('u2', 25 * 60))]]);
    const { rows, entries } = segmentItems(state.agg, 's', opts);
    expect(rows.map((r) => r.series)).toEqual(['play.count']); // the day-old one; the 91-day-old one has expired
    expect(entries).toEqual([]); // 25 h ago is outside a 24 h window
  });

  it("gives rows the minute's TTL and entries their bucket's", () => {
    const state = fold([[record('INSERT', original('u1', 5))]]);
    const { rows, entries } = segmentItems(state.agg, 's', opts);
    const minute = Math.floor((now - 5 * MIN) / MIN) * MIN;
    expect(rows[0]!.expiresAt).toBe((minute + 90 * 86_400_000) / 1000);
    const bucket = Math.floor((now - 5 * MIN) / 3_600_000) * 3_600_000;
    expect(entries[0]!.expiresAt).toBe((bucket + 24 * 3_600_000) / 1000);
  });

  it('spreads a series over ROLLUP_PARTITIONS partitions by segment', () => {
    const agg = fold([records]).agg;
    const splits = new Set(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id) =>
        segmentItems(agg, id, { ...opts, partitions: 4 })
          .rows[0]!.pk.split('#')
          .at(-1),
      ),
    );
    expect(splits.size).toBeGreaterThan(1);
  });

  it('decodes only its own state: `{}` and a replay start are not started yet; another version is refused', () => {
    expect(decodeState({})).toBeUndefined();
    expect(decodeState({ replay: { from: '1', to: '9' } })).toBeUndefined();
    expect(replayOf({ replay: { from: '1', to: '9' } })).toEqual({ first: '1', last: '9' });
    expect(replayOf({})).toBeUndefined();
    expect(() => decodeState({ v: 2 })).toThrow(/version 2/);
  });
});
