/**
 * Read units of GET /feed for push-only readers with 200 copies: a first page, a `before` page
 * right after it, and `before` pages of readers this handler instance has not seen in
 * HEAD_CACHE_MS (it reads the head in parallel). Calls per page are the reading scenario's.
 */
import { figureOf } from '../../report.js';
import { homeFeedPartition } from '../../../functions/model/feed-copy.js';
import { nowTicks } from '../../../functions/platform/clock.js';
import { callCount, type CapacityTotals } from '../../capacity.js';
import type { BenchContext } from '../../context.js';
import { itemSize, queryReadUnits } from '../../dynamo-cost.js';
import { benchFeed, quiesce, rawQuery, uid, writeModelItems } from '../../fixtures.js';
import { invokeRoute } from '../../invoke.js';
import type { Figure } from '../../report.js';
import { median, round, sum } from '../../stats.js';
import { middle, ratioFigure, S } from './figures.js';

const fig = figureOf(S);

const PAGES = 10;
const LIMIT = 20;
const COLD_READERS = 5;

const scanned = (s: CapacityTotals) => Object.values(s.tags).reduce((a, t) => a + t.scanned, 0);

export async function pageCost(ctx: BenchContext): Promise<Figure[]> {
  const { recordTrimTop, setHeadActiveUntil } = await import('../../../functions/stores/feed-store.js');
  const feed = ctx.stack.tableNames.feed;
  const withHead = uid('cost-reader-head');
  const noHead = uid('cost-reader-nohd');
  const cold = Array.from({ length: COLD_READERS }, (_, i) => uid('cost-reader-cold', i));
  const seeded = new Map<string, Record<string, unknown>[]>();
  for (const reader of [withHead, noHead, ...cold]) {
    const items = benchFeed(ctx, reader, uid('cost-page-author'), 200, nowTicks());
    seeded.set(reader, items);
    await writeModelItems(ctx, feed, items);
  }
  // A steady-state feed has a head: `top`, the newest copy when its last trim ran (here: its newest),
  // and the reader's activity bound (a reader who reads is stamped: docs/lanes.md#who-gets-a-copy).
  for (const reader of [withHead, ...cold]) {
    await recordTrimTop(reader, seeded.get(reader)![0]!.rk as bigint);
    await setHeadActiveUntil(reader, nowTicks() + 86_400_000_000_000n);
  }
  await quiesce(ctx);

  /** Sizes of the items a page's minimal Query reads (raw client, not metered). */
  const rawSizes = async (owner: string, limit: number, after?: bigint) => {
    const condition = after === undefined ? 'pk = :pk' : 'pk = :pk AND rk > :c';
    const { items } = await rawQuery(ctx, {
      TableName: feed,
      KeyConditionExpression: condition,
      values: { ':pk': homeFeedPartition(owner), ':c': after },
      Limit: limit,
    });
    return items.map(itemSize);
  };
  const page = async (reader: string, query: string) => {
    const { value: res, spent } = await ctx.handlerCapacity.measure(() => invokeRoute('GET', `/feed?limit=${LIMIT}${query}`, reader));
    if (res.status !== 200 || res.body.items.length !== LIMIT) throw new Error(`GET /feed${query}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    return { spent, last: String(res.body.items.at(-1).rangeKey) };
  };
  const sampleFirstAndBefore = async (reader: string) => {
    const first: CapacityTotals[] = [];
    const next: CapacityTotals[] = [];
    let cursor = '';
    for (let i = 0; i < PAGES; i++) {
      const a = await page(reader, '');
      first.push(a.spent);
      cursor = a.last;
      next.push((await page(reader, `&before=${cursor}`)).spent);
    }
    return { first, next, cursor: BigInt(cursor) };
  };

  // With a head item (rk 0): the first page's Query returns it with the page.
  const h = await sampleFirstAndBefore(withHead);
  const firstMin = await rawSizes(withHead, LIMIT + 2); // the head + limit + 1 copies
  const beforeMin = await rawSizes(withHead, LIMIT + 1, h.cursor);
  // Without a head item (a reader's very first read: no trim, no pulled follow, never stamped): the
  // first page reads one copy more. That read queues the reader's stamp, which then writes a head:
  // one sample, the page's own Query's units (the stamp job runs beside it on the same client).
  const noHeadMin = await rawSizes(noHead, LIMIT + 1);
  const noHeadFirst = (await page(noHead, '')).spent;
  await quiesce(ctx);
  const figures: Figure[] = [
    ratioFigure({
      metric: `RCU per first page (push-only reader, limit ${LIMIT}, head item present)`,
      measured: median(h.first.map((s) => s.read)),
      minimum: queryReadUnits(firstMin),
      target: 1.05,
      sizes: `minimum: one Query of the head (${firstMin[0]} B) + ${LIMIT + 1} copies, ${sum(firstMin)} B; items read ${median(h.first.map(scanned))} vs ${LIMIT + 2}`,
      sample: middle(h.first),
    }),
    ratioFigure({
      metric: `RCU per before page right after a first page (limit ${LIMIT})`,
      measured: median(h.next.map((s) => s.read)),
      minimum: queryReadUnits(beforeMin),
      target: 1.05,
      sizes: `minimum: one Query of ${LIMIT + 1} copies, ${sum(beforeMin)} B; items read ${median(h.next.map(scanned))} vs ${LIMIT + 1} (a before page asks for limit + 1, one for "more"; only a first page also asks one for the head at rk 0)`,
      sample: middle(h.next),
    }),
    ratioFigure({
      metric: `RCU per first page (push-only reader, no head item yet)`,
      measured: noHeadFirst.tags['home-feed page']?.read ?? Number.NaN,
      minimum: queryReadUnits(noHeadMin),
      target: 1.05,
      sizes: `minimum: ${LIMIT + 1} copies, ${sum(noHeadMin)} B; items read ${noHeadFirst.tags['home-feed page']?.scanned} vs ${LIMIT + 1}`,
      sample: noHeadFirst,
    }),
  ];

  // Cold cache: a before page of a reader this instance has not served a first page to lately.
  const coldSamples: CapacityTotals[] = [];
  let coldMin = 0;
  for (const reader of cold) {
    const cursor = seeded.get(reader)![LIMIT - 1]!.rk as bigint;
    const { value: res, spent } = await ctx.handlerCapacity.measure(() => invokeRoute('GET', `/feed?limit=${LIMIT}&before=${cursor}`, reader));
    coldSamples.push(spent);
    if (res.status !== 200) throw new Error(`GET /feed cold: ${res.status}`);
    coldMin = queryReadUnits(await rawSizes(reader, LIMIT + 1, cursor));
  }
  figures.push(
    fig(
      `before page with a cold head cache (no first page by this reader on this instance in 30 s): calls, RCU meter ${round(median(coldSamples.map((s) => s.read)), 3)} vs page minimum ${round(coldMin, 3)}`,
      median(coldSamples.map(callCount)),
      'calls',
      { note: `calls ${JSON.stringify(middle(coldSamples).calls)}: the head is read with GetItem in parallel with the page's Query (not in series)` },
    ),
  );
  return figures;
}
