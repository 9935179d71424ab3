/**
 * Ranked feeds: a reader's 500 copies and a ranked feed over them (`following`), read through the
 * handler in-process: the first page against reading the candidates once (raw Queries), the later
 * page against the chronological page after the first; a counted variable (`popularity`) apart.
 */
import { MAX_CANDIDATES } from '../../functions/http/ranked-feed-schemas.js';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { nowTicks } from '../../functions/platform/clock.js';
import type { BenchContext } from '../context.js';
import { benchCopy, benchOriginal, feedIdOf, quiesce, rawQuery, uid, writeModelItems } from '../fixtures.js';
import { meteredRoute } from '../invoke.js';
import { atMost, figureOf } from '../report.js';
import { median, round, timed } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'ranked';
const fig = figureOf(S);
const CANDIDATES = MAX_CANDIDATES;
const AUTHORS = 50;
const LIMIT = 20;
const SAMPLES = 9;

export const ranked: Scenario = {
  id: 'ranked',
  title: `A ranked first and later page over ${CANDIDATES} candidates, against reading them once and against the chronological pages`,
  async run(ctx) {
    const reader = uid('ranked-reader');
    const newest = nowTicks();
    const originals = Array.from({ length: CANDIDATES }, (_, i) => benchOriginal(uid('ranked-author', i % AUTHORS), newest - BigInt(i) * 1_000_000n, i));
    await writeModelItems(ctx, ctx.stack.tableNames.feed, originals);
    const copies = originals.map((o) => benchCopy(ctx, o, reader));
    await writeModelItems(ctx, ctx.stack.tableNames.feed, copies);
    const byAge = await define(ctx, reader, 'age', '0 - age');
    const byPopularity = await define(ctx, reader, 'popularity', 'ln(1 + popularity) - age');
    await quiesce(ctx); // the originals' own fan-outs (the stream sees them) run out before anything is metered

    const metered = (path: string) => meteredRoute(ctx, 'GET', path, reader);
    // The reader's home feed read once, raw (eventually consistent, as the source reads it).
    const rawCandidates = () =>
      rawQuery(ctx, { TableName: ctx.stack.tableNames.feed, KeyConditionExpression: 'pk = :pk', values: { ':pk': homeFeedPartition(reader) } });
    const rawRead = (await rawCandidates()).read;

    const first: Awaited<ReturnType<typeof metered>>[] = [];
    const later: Awaited<ReturnType<typeof metered>>[] = [];
    const chronoFirst: Awaited<ReturnType<typeof metered>>[] = [];
    const chronoLater: Awaited<ReturnType<typeof metered>>[] = [];
    const popular: Awaited<ReturnType<typeof metered>>[] = [];
    const raw: number[] = [];
    for (let s = 0; s < SAMPLES; s++) {
      const page = await metered(`/feeds/${byAge}/activities?limit=${LIMIT}`);
      first.push(page);
      const cursor = (page.res.body as { next: string | null }).next;
      if (!cursor || (page.res.body as { items: unknown[] }).items.length !== LIMIT) throw new Error('a ranked first page came back short or without a cursor');
      later.push(await metered(`/feeds/${byAge}/activities?limit=${LIMIT}&cursor=${encodeURIComponent(cursor)}`));
      const chrono = await metered(`/feed?limit=${LIMIT}`);
      chronoFirst.push(chrono);
      const before = (chrono.res.body as { lastRangeKey: string }).lastRangeKey;
      chronoLater.push(await metered(`/feed?limit=${LIMIT}&before=${before}`));
      popular.push(await metered(`/feeds/${byPopularity}/activities?limit=${LIMIT}`));
      raw.push((await timed(rawCandidates)).ms);
    }
    const m = (xs: readonly { read: number }[]) => median(xs.map((x) => x.read));
    const ms = (xs: readonly { ms: number }[]) => median(xs.map((x) => x.ms));
    const calls = (xs: readonly { calls: number }[]) => median(xs.map((x) => x.calls));
    const firstRead = m(first) / rawRead;
    const firstTime = ms(first) / median(raw);
    const laterRead = m(later) / m(chronoLater);
    return [
      fig(`ranked first page: read units / reading the ${CANDIDATES} candidates once (${round(rawRead)} units, raw Queries)`, round(firstRead), '×', {
        ...atMost(firstRead, 1.1),
        note: `ranked ${round(m(first))} units in ${calls(first)} calls; chronological first page ${round(m(chronoFirst))} units in ${calls(chronoFirst)} calls`,
      }),
      fig('ranked first page: p50 / raw candidate Queries p50', round(firstTime), '×', {
        ...atMost(firstTime, 1.5),
        note: `ranked ${round(ms(first))} ms, raw ${round(median(raw))} ms, chronological first page ${round(ms(chronoFirst))} ms`,
      }),
      fig('ranked later page: read units / the chronological page after the first', round(laterRead), '×', {
        ...atMost(laterRead, 1.1),
        note: `ranked ${round(m(later))} units in ${calls(later)} calls (the snapshot and one BatchGet of its ${LIMIT} originals); chronological ${round(m(chronoLater))} units in ${calls(chronoLater)} calls`,
      }),
      fig(`ranked first page with a counted variable (popularity): read units / reading the candidates once`, round(m(popular) / rawRead), '×', {
        note: `${round(m(popular))} units in ${calls(popular)} calls: a BatchGet of every candidate's counters (0.5 units per key, found or not)`,
      }),
    ];
  },
};

/** PUTs a ranked feed of `reader`'s own over their home feed; returns its id. */
async function define(ctx: BenchContext, reader: string, name: string, expression: string): Promise<string> {
  const id = feedIdOf('ranked', name);
  const res = await ctx.call('PUT', `/feeds/${id}`, reader, { sources: [{ type: 'following', windowHours: 72, limit: CANDIDATES }], expression });
  if (res.status !== 200) throw new Error(`PUT /feeds/${id}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return id;
}
