/**
 * Rollups through the real stream of DynamoDB Local and the real poller: originals written to the
 * feed table are counted by the `rollups` handler and read back through the HTTP API.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activityEntryKey } from '../../functions/model/activity-entry.js';
import { feedHeadKey } from '../../functions/model/feed-head.js';
import { ADMIN, api } from '../support/api.js';
import { uid } from '../support/ids.js';
import { doc, stack } from '../support/local.js';
import { eventually } from '../support/wait.js';
import { coarsen, type Points, readSeries, sumOf, truth } from '../support/rollup-truth.js';
import { type ActivityInput, copyItem, originalItem, seedOriginals, writeFeedItems } from '../support/seed-originals.js';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
// Spec'd in test/global-setup.ts: prop_a score sum/min/max, prop_b score sum + level max; prop_c counts only.
const SERIES = [
  'prop_a.count',
  'prop_a.score.sum',
  'prop_a.score.min',
  'prop_a.score.max',
  'prop_b.count',
  'prop_b.score.sum',
  'prop_b.level.max',
  'prop_c.count',
];
const COUNTS = SERIES.filter((s) => s.endsWith('.count'));

const post = fc.record({
  verb: fc.constantFrom('prop_a', 'prop_b', 'prop_c'),
  actor: fc.integer({ min: 0, max: 3 }),
  minutesAgo: fc.integer({ min: 0, max: 180 }), // late data: up to 3 h behind the newest
  ms: fc.integer({ min: 0, max: 59_999 }),
  score: fc.option(fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constant('n/a'), fc.boolean()), { nil: undefined }),
  level: fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined }),
});

describe('rollups through the stream', () => {
  it('equal the ground truth over random posts, with late ones in earlier minutes', async () => {
    let region = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(post, { minLength: 1, maxLength: 40 }), fc.nat(), async (posts, cut) => {
        // Each execution owns a 4-hour region on its own day (2..N days ago), so runs never mix.
        // Noon of that day, whatever time it is now: the 3-hour window never crosses midnight, so a
        // by-day read sees this execution's day only (near midnight it took in the next region's).
        const top = Math.floor((Date.now() - (2 + region++) * DAY) / DAY) * DAY + 12 * HOUR;
        const actors = [0, 1, 2, 3].map(() => uid('prop'));
        const activities: ActivityInput[] = posts.map((p) => ({
          actor: actors[p.actor]!,
          verb: p.verb,
          timeMs: top - p.minutesAgo * MIN + p.ms,
          attributes: {
            ...(p.score !== undefined ? { score: p.score } : {}),
            ...(p.level !== undefined ? { level: p.level } : {}),
          },
        }));
        // Two waves: the second lands in minutes the first already wrote rows for.
        const split = cut % (activities.length + 1);
        const from = top - 181 * MIN;
        const to = top + MIN;
        for (const wave of [activities.slice(0, split), activities]) {
          if (wave === activities) await seedOriginals(activities.slice(split));
          else await seedOriginals(wave);
          await eventually(
            async () => {
              let counted = 0;
              for (const s of COUNTS) counted += sumOf(await readSeries(s, from, to, 'day'));
              return counted >= wave.length;
            },
            { timeoutMs: 30_000 },
          );
        }
        // A window's rows land in more than one batch write: wait until every series has caught up
        // (a count reaching the total says nothing of the sums written after it), then compare.
        await eventually(
          async () => {
            const canonical = (points: Record<string, number>) => JSON.stringify(Object.entries(points).sort(([a], [b]) => a.localeCompare(b)));
            for (const s of SERIES) if (canonical(await readSeries(s, from, to)) !== canonical(truth(activities, s))) return false;
            return true;
          },
          { what: 'every series at its ground truth', timeoutMs: 30_000 },
        ).catch(() => undefined); // the expects below say what differs
        for (const s of SERIES) {
          const minutes = await readSeries(s, from, to);
          expect(minutes, s).toEqual(truth(activities, s));
          for (const g of ['hour', 'day'] as const) {
            expect(await readSeries(s, from, to, g), `${s} by ${g}`).toEqual(coarsen(minutes, s, g));
          }
        }
      }),
      { numRuns: 6, endOnFailure: true },
    );
  });

  it('does not count home-feed copies or heads, updates or deletes', async () => {
    const verb = `cnt_${uid('v').slice(2)}`;
    const sentinel = `${verb}_done`;
    const now = Date.now();
    const [a, b] = [originalItem({ actor: uid('a'), verb, timeMs: now }), originalItem({ actor: uid('b'), verb, timeMs: now })];
    await writeFeedItems([a, b, copyItem(a, uid('f')), copyItem(a, uid('f')), copyItem(b, uid('f'))]);
    await doc.send(new PutCommand({ TableName: stack.tableNames.feed, Item: { ...a, content: 'edited' } })); // MODIFY
    await doc.send(new DeleteCommand({ TableName: stack.tableNames.feed, Key: { pk: b.pk, rk: b.rk } })); // REMOVE
    await doc.send(new PutCommand({ TableName: stack.tableNames.feed, Item: { ...feedHeadKey(uid('h')), pulled: new Set([a.actor as string]) } })); // a head
    await seedOriginals([{ actor: uid('s'), verb: sentinel, timeMs: now }]);
    const range = [now - HOUR, now + MIN] as const;
    // Both originals counted (waited for, whatever order the shards deliver in) and the sentinel too…
    await eventually(async () => sumOf(await readSeries(`${verb}.count`, ...range)) === 2 && sumOf(await readSeries(`${sentinel}.count`, ...range)) === 1);
    // …and nothing else of this verb counts later (an absence: a correct consumer passes whenever this looks).
    // Bounded: the sentinel is another item, and records of different items may come on different shards in any order.
    await new Promise((r) => setTimeout(r, 1000));
    expect(sumOf(await readSeries(`${verb}.count`, ...range))).toBe(2);
  });

  it("serves a user's recent-activity window", async () => {
    const [busy, casual, idle] = [uid('busy'), uid('casual'), uid('idle')];
    const now = Date.now();
    await seedOriginals([
      ...Array.from({ length: 7 }, (_, i) => ({ actor: busy, verb: 'win', timeMs: now - (i % 3) * HOUR })),
      { actor: casual, verb: 'win', timeMs: now },
      { actor: casual, verb: 'win', timeMs: now - 26 * HOUR }, // older than the window: never bucketed
    ]);
    // Entries of an expired bucket TTL has not removed yet, just outside a 3 h window: filtered on read.
    const stale = Math.floor(now / HOUR) * HOUR - 3 * HOUR;
    await doc.send(
      new PutCommand({
        TableName: stack.tableNames.stats,
        Item: { ...activityEntryKey(busy, stale, 'stale'), start: new Date(stale).toISOString(), count: 1, expiresAt: 1 },
      }),
    );
    const read = (user: string, window?: string) =>
      api('GET', `/users/${user}/activity${window ? `?window=${window}` : ''}`, { as: uid('reader'), scope: ADMIN }); // another user's: the backend

    const w = await eventually(async () => {
      const res = await read(busy, '3h');
      return res.body.total === 7 && res.body;
    });
    const hour = (h: number) => new Date(Math.floor(now / HOUR) * HOUR - h * HOUR).toISOString();
    expect(w.buckets).toEqual([
      { start: hour(2), count: 2 },
      { start: hour(1), count: 2 },
      { start: hour(0), count: 3 },
    ]);
    expect(w.segment).toBe('power'); // 50 per 24 h scaled to 3 h = 7
    expect((await read(busy, '4h')).body.total).toBe(8); // the stale entry's bucket is in a 4 h window
    await eventually(async () => (await read(casual)).body.total === 1);
    const full = (await read(casual)).body;
    expect(full.buckets).toHaveLength(24);
    expect(full.segment).toBe('casual');
    expect((await read(idle, '2h')).body).toMatchObject({ total: 0, segment: 'inactive', buckets: [{ count: 0 }, { count: 0 }] });
    expect((await read(idle, '25h')).status).toBe(400);
    expect((await read(idle, 'soon')).status).toBe(400);
    expect((await api('GET', `/users/${idle}/activity`)).status).toBe(401);
  });

  it('validates rollup reads', async () => {
    const as = uid('reader');
    const bad = async (path: string, field: string) => {
      const res = await api('GET', path, { as, scope: ADMIN });
      expect(res.status, path).toBe(400);
      expect(
        res.body.errors.map((e: { field: string }) => e.field),
        path,
      ).toContain(field);
    };
    await bad('/rollups/nope', 'path.name');
    await bad('/rollups/x.score.avg', 'path.name');
    await bad('/rollups/x.count?granularity=week', 'query.granularity');
    await bad('/rollups/x.count?from=yesterday', 'query.from');
    await bad('/rollups/x.count?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:01Z', 'query.from'); // 1,441 minutes
    const day = new Date(Math.floor(Date.now() / DAY) * DAY - 7 * DAY).toISOString(); // a day within ROLLUP_TTL
    const next = new Date(Date.parse(day) + DAY).toISOString();
    const ok = await api('GET', `/rollups/x.count?from=${day}&to=${next}`, { as, scope: ADMIN });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ name: 'x.count', granularity: 'minute', points: [] });
    expect((await api('GET', '/rollups/x.count')).status).toBe(401);
  });
});

export type { Points };
