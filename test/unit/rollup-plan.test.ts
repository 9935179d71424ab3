/** The write plan of a stream batch, built without the network. */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { copyOf } from '../../functions/model/feed-copy.js';
import { feedHeadKey } from '../../functions/model/feed-head.js';
import { newDiscriminator } from '../../functions/model/range-key.js';
import { timelineItem } from '../../functions/model/timeline-item.js';
import { isoFromTicks } from '../../functions/platform/clock.js';
import { activityOf, planChunks, type PlanOptions } from '../../functions/services/rollups/plan.js';
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

describe('planChunks', () => {
  const acts = Array.from({ length: 300 }, (_, i) =>
    activityOf(record('INSERT', original(`u${i % 40}`, i % 45, i % 3 ? { score: i } : { score: 'high' })))!,
  );

  it('fits each chunk in one transaction, claims (= window entries) first, every activity in exactly one chunk', () => {
    const chunks = planChunks(acts, opts);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.claims.length + c.rows.length).toBeLessThanOrEqual(100);
      expect(c.claims.map((x) => [x.pk, x.sk.split('#')[1]])).toEqual(c.activities.map((a) => [`activity#${a.actor}`, a.eventId]));
      expect(c.id).toBe(c.activities[0]!.eventId);
      for (const row of c.rows) expect(row.sk.endsWith(`#${c.id}`)).toBe(true);
    }
    expect(chunks.flatMap((c) => c.activities)).toEqual(acts);
  });

  it('is deterministic and aggregates per (series, minute)', () => {
    const chunks = planChunks(acts, opts);
    expect(planChunks(acts, opts)).toEqual(chunks);
    const rows = chunks.flatMap((c) => c.rows);
    const sum = (series: string, field = 'value') =>
      rows.filter((r) => r.series === series).reduce((s, r) => s + Number(r[field]), 0);
    expect(sum('play.count')).toBe(300);
    expect(sum('play.score.sum')).toBe(acts.reduce((s, a) => s + (a.numbers.score ?? 0), 0)); // "high" skipped
    expect(chunks.flatMap((c) => c.claims).reduce((s, x) => s + Number(x.count), 0)).toBe(300);
    expect(rows.every((r) => r.kind === 'rollup')).toBe(true);
    expect(Math.max(...rows.filter((r) => r.series === 'play.score.max').map((r) => Number(r.value)))).toBe(299);
    const keys = rows.map((r) => `${r.pk}|${r.sk}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('skips what has already expired, and claims nothing it does not write', () => {
    const old = activityOf(record('INSERT', original('u1', 91 * 24 * 60)))!;
    expect(planChunks([old], opts)).toEqual([]);
    const dayOld = activityOf(record('INSERT', original('u1', 25 * 60)))!;
    const [chunk] = planChunks([dayOld], opts);
    expect(chunk!.rows.map((r) => r.series)).toEqual(['play.count']);
    expect(chunk!.claims[0]!.sk.startsWith('2026-11-21T11:00:00.000Z#')).toBe(true); // outside today's window
    expect(Number(chunk!.claims[0]!.expiresAt)).toBe((now + 2 * 86_400_000) / 1000); // outlives redelivery
  });

  it('spreads a series over ROLLUP_PARTITIONS partitions by chunk', () => {
    const pks = new Set(planChunks(acts, { ...opts, partitions: 4 }).flatMap((c) => c.rows).filter((r) => r.kind === 'rollup').map((r) => r.pk.split('#').at(-1)));
    expect(pks.size).toBeGreaterThan(1);
  });
});
