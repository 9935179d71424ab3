/**
 * Scenario 5 — cost. Consumed capacity (ReturnConsumedCapacity on the handlers' own client) per
 * post, per follower copy, per page and per trim, next to the minimum DynamoDB's documented rules
 * allow for the same item sizes (bench/dynamo-cost.ts), and dollars per million posts at 200
 * followers each at on-demand prices. Each operation is measured with the handlers otherwise
 * quiet, and split by table so the figure says where units went.
 */
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { nowTicks } from '../../functions/core/ticks.js';
import type { CapacityTotals } from '../capacity.js';
import type { BenchContext } from '../context.js';
import { dollars, itemSize, onDemand, queryReadUnits, writeUnits } from '../dynamo-cost.js';
import {
  benchActivity,
  authorWithFollowers,
  hasRoute,
  itemLike,
  notMeasured,
  quiesce,
  rawBatchWrite,
  storedShapes,
  uid,
  waitForCopies,
} from '../fixtures.js';
import type { Figure } from '../report.js';
import { median, round } from '../stats.js';
import type { Scenario } from './index.js';

const S = 'cost';
const FOLLOWERS = 200;
const POSTS = 6;
const PAGES = 10;
const TRIM_FEED = 1100;
const TRIM_EXCESS = 100;

export const cost: Scenario = {
  id: 'cost',
  title: `capacity per post / copy / page / trim vs the pricing-rule minimum; $ per million posts at ${FOLLOWERS} followers`,
  async run(ctx) {
    const figures: Figure[] = [];
    const canPost = hasRoute('POST', '/activities');
    const canFollow = hasRoute('PUT', '/following/{userId}');
    if (!canPost) figures.push(notMeasured(S, 'WCU per post', 'POST /activities is not in this build', '≤ 1.05 × min'));
    let perPost: { wcu: number; rcu: number } | undefined;
    let perCopy: { wcu: number; rcu: number } | undefined;
    let minPost: { wcu: number; rcu: number } | undefined;
    let minCopy: { wcu: number; rcu: number } | undefined;
    if (canPost) {
      const shapes = await storedShapes(ctx);
      const { author, followers } = canFollow ? await authorWithFollowers(ctx, FOLLOWERS) : { author: uid('cost-author'), followers: [] };
      const postSamples: CapacityTotals[] = [];
      const fanSamples: CapacityTotals[] = [];
      for (let i = 0; i < POSTS; i++) {
        await quiesce(ctx);
        const before = ctx.handlerCapacity.snapshot();
        const res = await ctx.call('POST', '/activities', author, benchActivity(i));
        if (res.status !== 201) throw new Error(`POST /activities: ${res.status}`);
        const afterPost = ctx.handlerCapacity.snapshot();
        postSamples.push(ctx.handlerCapacity.since(before));
        if (followers.length) {
          const drained = await waitForCopies(ctx, followers, String(res.body.rangeKey));
          if (drained.missing) throw new Error(`${drained.missing} copies missing`);
        }
        await quiesce(ctx);
        fanSamples.push(ctx.handlerCapacity.since(afterPost));
      }
      const originalBytes = itemSize(shapes.original);
      const copyBytes = itemSize(shapes.copy);
      const stats = ctx.stack.tableNames.stats;
      // The request: the original in the feed table and its byAuthor index entry, nothing else needed.
      minPost = { wcu: writeUnits(originalBytes, 1), rcu: 0 };
      perPost = { wcu: median(postSamples.map((s) => s.write)), rcu: median(postSamples.map((s) => s.read)) };
      figures.push(ratioFigure('WCU per post (request)', perPost.wcu, minPost.wcu, postSamples, `original ${originalBytes} B + byAuthor index entry`));
      if (followers.length) {
        // Rollups (stats table) are their own feature; the fan-out is everything else after the 201.
        const fanout = fanSamples.map((s) => withoutTable(s, stats));
        const wcu = median(fanout.map((s) => s.write)) / FOLLOWERS;
        const rcu = median(fanout.map((s) => s.read)) / FOLLOWERS;
        perCopy = { wcu, rcu };
        // Minimum: each copy written once; the follower list read once per post (edges are small:
        // 200 edges fit in 4 KB → 0.5 RCU per post).
        minCopy = { wcu: writeUnits(copyBytes), rcu: queryReadUnits([0]) / FOLLOWERS };
        figures.push(ratioFigure('WCU per follower copy', wcu, minCopy.wcu, fanout, `copy ${copyBytes} B`, FOLLOWERS));
        figures.push({ scenario: S, metric: 'RCU per follower copy (follower list reads)', value: round(rcu, 4), unit: 'RCU' });
        const rollup = median(fanSamples.map((s) => s.tables[stats]?.write ?? 0));
        // DynamoDB Local under-reports transactions; the rule: 2 WCU per item (≤ 1 KB) in a transaction.
        const txItems = median(fanSamples.map((s) => s.items.TransactWriteItemsCommand ?? 0));
        figures.push({
          scenario: S,
          metric: 'rollup WCU per post (stats table, separate feature)',
          value: round(2 * txItems, 2),
          unit: 'WCU (rule: 2 per transactional item)',
          note: `meter says ${round(rollup, 2)} WCU for ${txItems} transactional items: DynamoDB Local's transaction capacity is not the service's`,
        });
      } else {
        figures.push(notMeasured(S, 'WCU per follower copy', 'PUT /following is not in this build', '≤ 1.05 × min'));
      }
    }
    figures.push(...(await pageCost(ctx)));
    figures.push(...(await trimCost(ctx)));
    if (perPost && perCopy && minPost && minCopy) {
      const wcu = perPost.wcu + FOLLOWERS * perCopy.wcu;
      const rcu = perPost.rcu + FOLLOWERS * perCopy.rcu;
      const minW = minPost.wcu + FOLLOWERS * minCopy.wcu;
      const minR = minPost.rcu + FOLLOWERS * minCopy.rcu;
      const prices = `$${onDemand.dollarsPerMillionWrites}/M write units, $${onDemand.dollarsPerMillionReads}/M read units, on-demand`;
      figures.push({ scenario: S, metric: `$ per million posts at ${FOLLOWERS} followers (meter; ${prices})`, value: round(dollars(1e6, wcu, rcu), 2), unit: '$' });
      figures.push({ scenario: S, metric: `$ per million posts at ${FOLLOWERS} followers (rule minimum)`, value: round(dollars(1e6, minW, minR), 2), unit: '$' });
    }
    return figures;
  },
};

function withoutTable(t: CapacityTotals, table: string): CapacityTotals {
  const x = t.tables[table] ?? { read: 0, write: 0 };
  return { ...t, read: t.read - x.read, write: t.write - x.write };
}

/** Where the units went, e.g. "feed 201 W, graph 200 W". */
function split(t: CapacityTotals, per = 1): string {
  return Object.entries(t.tables)
    .map(([name, u]) => `${name.replace(/^tickfeed-/, '')} ${round(u.write / per, 2)} W ${round(u.read / per, 2)} R`)
    .join(', ');
}

function ratioFigure(metric: string, measured: number, minimum: number, samples: CapacityTotals[], sizes: string, per = 1): Figure {
  const ratio = measured / minimum;
  const met = ratio <= 1.05;
  const typical = samples[Math.floor(samples.length / 2)]!;
  return {
    scenario: S,
    metric: `${metric}: meter ${round(measured, 3)} vs rule minimum ${round(minimum, 3)}`,
    value: round(ratio, 3),
    unit: '× min',
    target: '≤ 1.05 × min',
    met,
    note: `${sizes}; ${met ? '' : 'where it went: '}${split(typical, per)}; calls ${JSON.stringify(typical.calls)}`,
  };
}

/** Read units per GET /feed page (limit 20) against one 4 KB-rounded Query of the page's items. */
async function pageCost(ctx: BenchContext): Promise<Figure[]> {
  if (!hasRoute('GET', '/feed')) return [notMeasured(S, 'RCU per page', 'GET /feed is not in this build', '≤ 1.05 × min')];
  const { copy } = await storedShapes(ctx);
  const owner = uid('cost-reader');
  const newest = nowTicks();
  await rawBatchWrite(ctx, ctx.stack.tableNames.feed, Array.from({ length: 200 }, (_, i) => itemLike(copy, owner, newest - BigInt(i) * 1000n)), 4);
  await quiesce(ctx);
  const samples: CapacityTotals[] = [];
  for (let i = 0; i < PAGES; i++) {
    const before = ctx.handlerCapacity.snapshot();
    const res = await ctx.call('GET', '/feed?limit=20', owner);
    if (res.status !== 200) throw new Error(`GET /feed: ${res.status}`);
    samples.push(ctx.handlerCapacity.since(before));
  }
  // The same page as a raw Query: its item sizes give the rule minimum.
  const page = await ctx.dynamo.send(
    new QueryCommand({ TableName: ctx.stack.tableNames.feed, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: owner } }, Limit: 20 }),
  );
  const sizes = (page.Items ?? []).map(itemSize);
  const min = queryReadUnits(sizes);
  const measured = median(samples.map((s) => s.read));
  return [ratioFigure('RCU per page (limit 20)', measured, min, samples, `20 items, ${sizes.reduce((a, b) => a + b, 0)} B`)];
}

/** Units of one trim that removes TRIM_EXCESS items, against deleting them and reading them once. */
async function trimCost(ctx: BenchContext): Promise<Figure[]> {
  let trimFeed: (owner: string, maxItems: number, countedBefore: number) => Promise<number>;
  try {
    ({ trimFeed } = await import('../../functions/core/retention/trim.js'));
  } catch {
    return [notMeasured(S, 'WCU per trim', 'retention trim is not in this build', '≤ 1.05 × min')];
  }
  const { copy } = await storedShapes(ctx);
  const owner = uid('cost-trim');
  const newest = nowTicks();
  const items = Array.from({ length: TRIM_FEED }, (_, i) => itemLike(copy, owner, newest - BigInt(i) * 1000n));
  await rawBatchWrite(ctx, ctx.stack.tableNames.feed, items, 4);
  await quiesce(ctx);
  const before = ctx.handlerCapacity.snapshot();
  const deleted = await trimFeed(owner, TRIM_FEED - TRIM_EXCESS, TRIM_FEED);
  const spent = ctx.handlerCapacity.since(before);
  if (deleted !== TRIM_EXCESS) throw new Error(`trim deleted ${deleted}, expected ${TRIM_EXCESS}`);
  const sizes = items.slice(-TRIM_EXCESS).map(itemSize);
  const minW = sizes.reduce((s, b) => s + writeUnits(b), 0);
  const minR = queryReadUnits(sizes);
  return [
    ratioFigure(`WCU per trim of ${TRIM_EXCESS} items`, spent.write, minW, [spent], `${TRIM_EXCESS} deletes of ${sizes[0]} B`),
    {
      scenario: S,
      metric: `RCU per trim of ${TRIM_EXCESS} items: meter ${round(spent.read, 2)} vs rule minimum ${round(minR, 2)}`,
      value: round(spent.read / minR, 3),
      unit: '× min',
      target: '≤ 1.05 × min',
      met: spent.read / minR <= 1.05,
      note: `a ${TRIM_FEED}-item feed trimmed to ${TRIM_FEED - TRIM_EXCESS}; calls ${JSON.stringify(spent.calls)}; ${split(spent)}; by the rule a Query reading all ${TRIM_FEED} items costs ${round(queryReadUnits(items.map(itemSize)), 2)} RCU — the trim's recount (Select COUNT over the whole feed) pays that`,
    },
  ];
}
