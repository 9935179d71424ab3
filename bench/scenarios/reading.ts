/**
 * Scenario 3 — reading. A 5,000-item home feed (copies built with the model, written with raw
 * BatchWriteItem) is read at page 1 and page 250 (limit 20): through the local HTTP API, through
 * the handler alone (in-process, no HTTP/JWT), and as a raw Query of the same page on the same
 * DynamoDB Local (pk = f#reader, rk past the cursor, Limit 21: the page and one item saying there
 * is more). Samples of the three are interleaved so machine noise hits them alike. DynamoDB calls
 * per page come from the meter on the handlers' own client. Page 250 (a `before` page) is always
 * read right after page 1 by the same reader, so the handler knows the reader's pulled set from
 * its head cache (services/feed-reading.ts) and reads no head item.
 * A feed this deep is more than FEED_MAX_ITEMS retention would leave (about 2N + N/4 at most);
 * it is seeded without trims to show that depth itself costs nothing.
 */
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { profileKey } from '../../functions/model/profile.js';
import { nowTicks } from '../../functions/platform/clock.js';
import { type CapacityTotals, timeSplit } from '../capacity.js';
import type { BenchContext } from '../context.js';
import { benchFeed, benchOriginal, follow, quiesce, uid, writeModelItems } from '../fixtures.js';
import { invokeRoute } from '../invoke.js';
import { atMost, type Figure } from '../report.js';
import { median, percentile, round, timed } from '../stats.js';
import type { Scenario } from './scenario.js';

const FEED_ITEMS = 5000;
const LIMIT = 20;
const SAMPLES = 40;
const S = 'reading';

export const reading: Scenario = {
  id: 'reading',
  title: `GET /feed page 1 vs page 250 of a ${FEED_ITEMS}-item feed; handler vs raw Query`,
  async run(ctx) {
    const reader = uid('reader');
    const rks = await seedFeed(ctx, reader, FEED_ITEMS);
    await quiesce(ctx); // the seed's stream records pass through the outbox and rollups: let them settle
    const figures: Figure[] = [];
    const pages = [1, 250] as const;
    const results: Record<
      number,
      { http: number[]; handler: number[]; raw: number[]; calls: number[]; split: { ms: number; spent: CapacityTotals }[]; items: number }
    > = {};
    for (const page of pages) {
      const cursor = page === 1 ? undefined : rks[(page - 1) * LIMIT - 1]!;
      const path = `/feed?limit=${LIMIT}${cursor ? `&before=${cursor}` : ''}`;
      // Correctness first: the page must hold the expected items, or the timings mean nothing.
      const check = await ctx.call('GET', path, reader);
      const want = rks.slice((page - 1) * LIMIT, page * LIMIT);
      const got = (check.body?.items ?? []).map((i: { rangeKey?: string; rk?: string }) => String(i.rangeKey ?? i.rk ?? ''));
      if (check.status !== 200 || !sameKeys(got, want)) {
        throw new Error(`GET ${path}: ${check.status}, expected ${want.length} items from ${want[0]}, got ${JSON.stringify(check.body).slice(0, 300)}`);
      }
      results[page] = { http: [], handler: [], raw: [], calls: [], split: [], items: got.length };
    }
    await quiesce(ctx); // the reader's first read queued their stamp (docs/lanes.md#who-gets-a-copy): done before the samples
    for (let s = 0; s < SAMPLES; s++) {
      for (const page of pages) {
        const cursor = page === 1 ? undefined : rks[(page - 1) * LIMIT - 1]!;
        const path = `/feed?limit=${LIMIT}${cursor ? `&before=${cursor}` : ''}`;
        const r = results[page]!;
        r.http.push((await ctx.call('GET', path, reader)).ms);
        const before = ctx.handlerCapacity.snapshot();
        const { ms } = await invokeRoute('GET', path, reader);
        const spent = ctx.handlerCapacity.since(before);
        r.split.push({ ms, spent });
        r.calls.push(Object.values(spent.calls).reduce((a, b) => a + b, 0));
        // The timings compared: both sides unmetered (the meter's ReturnConsumedCapacity and
        // bookkeeping would weigh on the handler's calls only).
        r.handler.push((await ctx.handlerCapacity.unmetered(() => invokeRoute('GET', path, reader))).ms);
        r.raw.push((await timed(() => rawQuery(ctx, reader, cursor))).ms);
      }
    }
    for (const page of pages) {
      const r = results[page]!;
      figures.push(
        { scenario: S, metric: `page ${page} GET /feed p50 (HTTP API)`, value: round(median(r.http)), unit: 'ms' },
        { scenario: S, metric: `page ${page} GET /feed p99 (HTTP API)`, value: round(percentile(r.http, 99)), unit: 'ms' },
        { scenario: S, metric: `page ${page} handler alone p50`, value: round(median(r.handler)), unit: 'ms' },
        { scenario: S, metric: `page ${page} raw Query p50 (Limit ${page === 1 ? LIMIT + 2 : LIMIT + 1})`, value: round(median(r.raw)), unit: 'ms' },
      );
    }
    const p1 = results[1]!;
    const p250 = results[250]!;
    const depth = median(p250.http) / median(p1.http);
    figures.push({
      scenario: S,
      metric: 'page 250 / page 1 (p50, HTTP API)',
      value: round(depth),
      unit: '×',
      ...atMost(depth, 1.15),
      note:
        depth <= 1.15
          ? undefined
          : `raw Query page 250 / page 1 = ${round(median(p250.raw) / median(p1.raw))}×: the depth cost is DynamoDB Local's, not the handler's`,
    });
    for (const page of pages) {
      const r = results[page]!;
      const ratio = median(r.handler) / median(r.raw);
      figures.push({
        scenario: S,
        metric: `page ${page} handler / raw Query (p50)`,
        value: round(ratio),
        unit: '×',
        ...atMost(ratio, 1.2),
        note:
          ratio <= 1.2
            ? undefined
            : `handler ${round(median(r.handler))} ms vs raw Query ${round(median(r.raw))} ms; inside the handler (p50s): ${timeSplit(r.split)}; calls per page ${JSON.stringify(r.split[0]?.spent.calls)}`,
      });
    }
    for (const page of pages) {
      const r = results[page]!;
      const calls = median(r.calls);
      figures.push({
        scenario: S,
        metric: `DynamoDB calls per page ${page} (push feed${page === 1 ? ', first page' : ', before page right after a first page: pulled set from the head cache'})`,
        value: calls,
        unit: 'calls',
        target: '1',
        met: calls === 1,
        note: `calls ${JSON.stringify(r.split[0]?.spent.calls)}`,
      });
    }
    figures.push(...(await hybrid(ctx, median(p1.handler))));
    return figures;
  },
};

/** Writes `count` home-feed copies (newest first) into `owner`'s feed; returns their range keys in feed order. */
async function seedFeed(ctx: BenchContext, owner: string, count: number): Promise<string[]> {
  const items = benchFeed(ctx, owner, uid('reading-author'), count, nowTicks(), 1_000_000n);
  await writeModelItems(ctx, ctx.stack.tableNames.feed, items);
  return items.map((i) => String(i.rk)).sort(compareRk);
}

const compareRk = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
const sameKeys = (a: string[], b: string[]) => a.length === b.length && a.every((k, i) => k === b[i]);

/**
 * The page as a raw Query: rk strictly greater than the cursor (older), newest first, the page + 1
 * — and on a first page + 2, as the handler asks: a first page also covers rk 0, where a feed's
 * head (its pulled set) would be.
 */
async function rawQuery(ctx: BenchContext, owner: string, cursor: string | undefined) {
  return ctx.dynamo.send(
    new QueryCommand({
      TableName: ctx.stack.tableNames.feed,
      KeyConditionExpression: cursor ? 'pk = :pk AND rk > :c' : 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: homeFeedPartition(owner) }, ...(cursor ? { ':c': { N: cursor } } : {}) },
      Limit: cursor ? LIMIT + 1 : LIMIT + 2,
    }),
  );
}

/**
 * Hybrid feeds: a reader whose home feed holds 1,000 pushed copies and who follows k pulled
 * authors with 200 originals each (interleaved in time). Authors become pulled through the real
 * pull job (the one a threshold crossing enqueues), so the reader's pulled set is what production
 * would write; only the trigger is skipped, because 100,000 follows would not fit the run.
 */
async function hybrid(ctx: BenchContext, pushHandlerP50: number): Promise<Figure[]> {
  // Loaded here, not at the top: handler-side modules read their env at load (after the stack starts).
  const { enqueueJob } = await import('../../functions/services/jobs/bus.js');
  const figures: Figure[] = [];
  for (const k of [1, 4]) {
    const reader = uid('hybrid-reader', k);
    const authors = Array.from({ length: k }, (_, i) => uid(`hybrid-author-${k}`, i));
    for (const a of authors) await follow(ctx, [reader], a);
    for (const a of authors) {
      // The pull job re-checks the count against FANOUT_PULL_THRESHOLD: make the counter say so.
      await ctx.doc.send(
        new UpdateCommand({
          TableName: ctx.stack.tableNames.graph,
          Key: profileKey(a),
          UpdateExpression: 'ADD followers :n',
          ExpressionAttributeValues: { ':n': Number(ctx.stack.env.FANOUT_PULL_THRESHOLD ?? 100_000) },
        }),
      );
      await enqueueJob({ kind: 'pull', author: a });
    }
    await quiesce(ctx);
    for (const a of authors) {
      const { Item } = await ctx.doc.send(new GetCommand({ TableName: ctx.stack.tableNames.graph, Key: profileKey(a) }));
      if (Item?.pulled !== true) throw new Error(`the pull job did not mark ${a} pulled`);
    }
    const newest = nowTicks();
    // 1,000 pushed copies in the reader's home feed; 200 originals in each pulled author's timeline.
    const items = [
      ...benchFeed(ctx, reader, uid(`hybrid-pushed-${k}`), 1000, newest, 1_000_000n),
      ...authors.flatMap((a, j) => Array.from({ length: 200 }, (_, i) => benchOriginal(a, newest - BigInt(i * 5 + j) * 1_000_000n - 500_000n, i))),
    ];
    await writeModelItems(ctx, ctx.stack.tableNames.feed, items);
    await quiesce(ctx);
    const check = await ctx.call('GET', '/feed?limit=20', reader);
    const pulledOnPage = (check.body?.items ?? []).filter((i: { actor?: string }) => authors.includes(i.actor ?? '')).length;
    if (check.status !== 200 || pulledOnPage === 0) {
      throw new Error(`hybrid feed of ${reader}: ${check.status}, ${pulledOnPage} pulled items on page 1: ${JSON.stringify(check.body).slice(0, 300)}`);
    }
    await quiesce(ctx); // the reader's stamp, queued by that first read
    const samples: { ms: number; spent: CapacityTotals }[] = [];
    for (let i = 0; i < 20; i++) {
      const before = ctx.handlerCapacity.snapshot();
      const { ms } = await invokeRoute('GET', '/feed?limit=20', reader);
      samples.push({ ms, spent: ctx.handlerCapacity.since(before) });
    }
    const queries = median(samples.map((x) => x.spent.calls.QueryCommand ?? 0));
    const p50 = median(samples.map((x) => x.ms));
    figures.push({
      scenario: S,
      metric: `Queries per first page (hybrid, k = ${k} pulled author${k > 1 ? 's' : ''}; 1 + k expected)`,
      value: queries,
      unit: 'queries',
      target: String(1 + k),
      met: queries === 1 + k,
      note: `${pulledOnPage}/20 pulled items on page 1; calls ${JSON.stringify(samples[0]!.spent.calls)}; handler p50 ${round(p50)} ms vs push ${round(pushHandlerP50)} ms`,
    });
  }
  return figures;
}
