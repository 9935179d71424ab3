/** The write plan of a stream batch, built without the network. */
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { activityOf, planChunks, type PlanOptions } from '../../functions/core/rollups/plan.js';
import { parseRollupSpec } from '../../functions/core/rollups/spec.js';

const MIN = 60_000;
const now = Date.parse('2026-11-22T12:00:00.000Z');
const opts: PlanOptions = {
  spec: parseRollupSpec('play:sum(score),play:MAX(score)'),
  nowMs: now,
  rollupTtlMs: 90 * 86_400_000,
  partitions: 1,
  window: { bucketMs: 3_600_000, buckets: 24 },
};

let n = 0;
function record(eventName: string, image: Record<string, unknown>): DynamoDBRecord {
  n += 1;
  const attr = (v: unknown): Record<string, unknown> =>
    typeof v === 'number' ? { N: String(v) } : typeof v === 'string' ? { S: v } : typeof v === 'boolean' ? { BOOL: v } :
    { M: Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, attr(x)])) };
  const img = attr(image).M;
  return {
    eventID: `ev${n}`,
    eventName,
    dynamodb: { SequenceNumber: String(1000 + n), NewImage: eventName === 'REMOVE' ? undefined : img, OldImage: img },
  } as DynamoDBRecord;
}
const original = (actor: string, minute: number, attributes?: Record<string, unknown>) => ({
  pk: actor, actor, author: actor, verb: 'play', time: new Date(now - minute * MIN).toISOString(), ...(attributes ? { attributes } : {}),
});

describe('activityOf', () => {
  it('counts only INSERTs of originals', () => {
    const { author: _a, ...copy } = original('u1', 1);
    expect(activityOf(record('INSERT', original('u1', 1, { score: 5, label: 'x', ok: true })))).toMatchObject({
      actor: 'u1', verb: 'play', numbers: { score: 5 },
    });
    expect(activityOf(record('INSERT', { ...copy, pk: 'follower' }))).toBeUndefined();
    expect(activityOf(record('MODIFY', original('u1', 1)))).toBeUndefined();
    expect(activityOf(record('REMOVE', original('u1', 1)))).toBeUndefined();
    expect(activityOf(record('UNKNOWN_TO_SDK_VERSION', original('u1', 1)))).toBeUndefined();
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
