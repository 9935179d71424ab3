/**
 * Reading: a 5,000-item home feed (model-built copies, written raw) read at page 1 and page 250
 * (limit 20) through the HTTP API, through the handler alone (in-process) and as a raw Query of the
 * same page, interleaved. Page 250 follows page 1 by the same reader, so the handler knows the
 * reader's pulled set from its head cache and reads no head. The feed is deeper than retention
 * would leave it: depth itself costs nothing. Then hybrid feeds: Queries per page with k pulled authors.
 */
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { profileKey } from '../../functions/model/profile.js';
import { nowTicks } from '../../functions/platform/clock.js';
import { callCount, type CapacityTotals, timeSplit } from '../capacity.js';
import type { BenchContext } from '../context.js';
import { benchFeed, benchOriginal, followAll, quiesce, uid, writeModelItems } from '../fixtures.js';
import { invokeRoute } from '../invoke.js';
import { atMost, exactly, type Figure, figureOf } from '../report.js';
import { median, percentile, round, timed } from '../stats.js';
import type { Scenario } from './scenario.js';

const FEED_ITEMS = 5000;
const LIMIT = 20;
const SAMPLES = 40;
const fig = figureOf('reading');

interface PageSamples {
  http: number[];
  handler: number[];
  raw: number[];
  split: { ms: number; spent: CapacityTotals }[];
}

export const reading: Scenario = {
  id: 'reading',
  title: `GET /feed page 1 vs page 250 of a ${FEED_ITEMS}-item feed; handler vs raw Query`,
  async run(ctx) {
    const reader = uid('reader');
    const items = benchFeed(ctx, reader, uid('reading-author'), FEED_ITEMS, nowTicks());
    await writeModelItems(ctx, ctx.stack.tableNames.feed, items);
    const rks = items.map((i) => String(i.rk)); // newest first: feed order
    await quiesce(ctx); // the seed's stream records pass through the outbox and rollups
    const pages = [1, 250] as const;
    const cursorOf = (page: number) => (page === 1 ? undefined : rks[(page - 1) * LIMIT - 1]!);
    const pathOf = (page: number) => `/feed?limit=${LIMIT}${page === 1 ? '' : `&before=${cursorOf(page)}`}`;
    const results: Record<number, PageSamples> = {};
    for (const page of pages) {
      // The page must hold the expected items, or the timings mean nothing.
      const check = await ctx.call('GET', pathOf(page), reader);
      const got = (check.body?.items ?? []).map((i: { rangeKey: string }) => String(i.rangeKey)).join();
      if (check.status !== 200 || got !== rks.slice((page - 1) * LIMIT, page * LIMIT).join())
        throw new Error(`GET ${pathOf(page)}: ${check.status} ${JSON.stringify(check.body).slice(0, 300)}`);
      results[page] = { http: [], handler: [], raw: [], split: [] };
    }
    await quiesce(ctx); // the reader's first read queued their stamp: done before the samples
    for (let s = 0; s < SAMPLES; s++) {
      for (const page of pages) {
        const r = results[page]!;
        r.http.push((await ctx.call('GET', pathOf(page), reader)).ms);
        const { value, spent } = await ctx.handlerCapacity.measure(() => invokeRoute('GET', pathOf(page), reader));
        r.split.push({ ms: value.ms, spent });
        // The timings compared: both sides unmetered (the meter would weigh on the handler's calls only).
        r.handler.push((await ctx.handlerCapacity.unmetered(() => invokeRoute('GET', pathOf(page), reader))).ms);
        r.raw.push((await timed(() => rawQuery(ctx, reader, cursorOf(page)))).ms);
      }
    }
    const figures: Figure[] = [];
    for (const page of pages) {
      const r = results[page]!;
      const ratio = median(r.handler) / median(r.raw);
      const inside = `handler ${round(median(r.handler))} ms vs raw Query ${round(median(r.raw))} ms; inside the handler (p50s): ${timeSplit(r.split)}`;
      const calls = median(r.split.map((x) => callCount(x.spent)));
      const which = page === 1 ? 'first page' : 'before page right after a first page: pulled set from the head cache';
      figures.push(
        fig(`page ${page} GET /feed p50 (HTTP API)`, round(median(r.http)), 'ms'),
        fig(`page ${page} GET /feed p99 (HTTP API)`, round(percentile(r.http, 99)), 'ms'),
        fig(`page ${page} handler alone p50`, round(median(r.handler)), 'ms'),
        fig(`page ${page} raw Query p50 (Limit ${page === 1 ? LIMIT + 2 : LIMIT + 1})`, round(median(r.raw)), 'ms'),
        fig(`page ${page} handler / raw Query (p50)`, round(ratio), '×', { ...atMost(ratio, 1.2), note: ratio <= 1.2 ? undefined : inside }),
        fig(`DynamoDB calls per page ${page} (push feed, ${which})`, calls, 'calls', {
          ...exactly(calls, 1),
          note: `calls ${JSON.stringify(r.split[0]?.spent.calls)}`,
        }),
      );
    }
    const [p1, p250] = [results[1]!, results[250]!];
    const depth = median(p250.http) / median(p1.http);
    const why = `raw Query page 250 / page 1 = ${round(median(p250.raw) / median(p1.raw))}×: the depth cost is DynamoDB Local's, not the handler's`;
    figures.push(fig('page 250 / page 1 (p50, HTTP API)', round(depth), '×', { ...atMost(depth, 1.15), note: depth <= 1.15 ? undefined : why }));
    return [...figures, ...(await hybrid(ctx, median(p1.handler)))];
  },
};

/** The page as a raw Query, as the handler asks: limit + 1 past the cursor; a first page also covers rk 0, where a head would be. */
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
 * Hybrid feeds: a reader with 1,000 pushed copies who follows k pulled authors of 200 originals each.
 * The authors become pulled through the real pull job (only its trigger, 100,000 follows, is skipped).
 */
async function hybrid(ctx: BenchContext, pushHandlerP50: number): Promise<Figure[]> {
  const { enqueueJob } = await import('../../functions/services/jobs/bus.js'); // handler modules read their env at load
  const graph = ctx.stack.tableNames.graph;
  const threshold = Number(ctx.stack.env.FANOUT_PULL_THRESHOLD ?? 100_000);
  const figures: Figure[] = [];
  for (const k of [1, 4]) {
    const reader = uid('hybrid-reader', k);
    const authors = Array.from({ length: k }, (_, i) => uid(`hybrid-author-${k}`, i));
    const follows = authors.map((followee) => ({ follower: reader, followee }));
    await followAll(ctx, follows);
    for (const a of authors) {
      // The pull job re-checks the count against FANOUT_PULL_THRESHOLD: make the counter say so.
      await ctx.doc.send(
        new UpdateCommand({ TableName: graph, Key: profileKey(a), UpdateExpression: 'ADD followers :n', ExpressionAttributeValues: { ':n': threshold } }),
      );
      await enqueueJob({ kind: 'pull', author: a });
    }
    await quiesce(ctx);
    for (const a of authors) {
      const { Item } = await ctx.doc.send(new GetCommand({ TableName: graph, Key: profileKey(a) }));
      if (Item?.pulled !== true) throw new Error(`the pull job did not mark ${a} pulled`);
    }
    const newest = nowTicks();
    const items = [
      ...benchFeed(ctx, reader, uid(`hybrid-pushed-${k}`), 1000, newest),
      ...authors.flatMap((a, j) => Array.from({ length: 200 }, (_, i) => benchOriginal(a, newest - BigInt(i * 5 + j) * 1_000_000n - 500_000n, i))),
    ];
    await writeModelItems(ctx, ctx.stack.tableNames.feed, items);
    await quiesce(ctx);
    const check = await ctx.call('GET', '/feed?limit=20', reader);
    const pulledOnPage = (check.body?.items ?? []).filter((i: { actor?: string }) => authors.includes(i.actor ?? '')).length;
    if (check.status !== 200 || pulledOnPage === 0) throw new Error(`hybrid feed of ${reader}: ${check.status}, ${pulledOnPage} pulled items on page 1`);
    await quiesce(ctx); // the reader's stamp, queued by that first read
    const samples: { ms: number; spent: CapacityTotals }[] = [];
    for (let i = 0; i < 20; i++) {
      const { value, spent } = await ctx.handlerCapacity.measure(() => invokeRoute('GET', '/feed?limit=20', reader));
      samples.push({ ms: value.ms, spent });
    }
    const queries = median(samples.map((x) => x.spent.calls.QueryCommand ?? 0));
    figures.push(
      fig(`Queries per first page (hybrid, k = ${k} pulled author${k > 1 ? 's' : ''}; 1 + k expected)`, queries, 'queries', {
        ...exactly(queries, 1 + k),
        note: `${pulledOnPage}/20 pulled items on page 1; calls ${JSON.stringify(samples[0]!.spent.calls)}; handler p50 ${round(median(samples.map((x) => x.ms)))} ms vs push ${round(pushHandlerP50)} ms`,
      }),
    );
  }
  return figures;
}
