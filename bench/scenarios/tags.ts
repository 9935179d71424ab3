/**
 * Tags, each against its minimum: a 500-entry tag's page through the handler (calls, read units
 * against a raw page Query plus the reader's controls Query, p50 against the raw page Query); one
 * tagFanout job's write units per push follower (500) against one copy write each; and
 * GET /tags/trending against one GetItem of the top list.
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tagEntryOf, tagFeedPartition, tagFollowerKey } from '../../functions/model/tag-items.js';
import { controlPartition } from '../../functions/model/user-controls.js';
import { trendBucket, trendTopKey } from '../../functions/model/trend.js';
import { nowTicks } from '../../functions/platform/clock.js';
import { type CapacityTotals, timeSplit } from '../capacity.js';
import type { BenchContext } from '../context.js';
import { attributes, benchOriginal, quiesce, rawQuery, storedItem, uid, writeModelItems } from '../fixtures.js';
import { invokeRoute, meteredRoute } from '../invoke.js';
import { atMost, type Figure, figureOf } from '../report.js';
import { median, round, timed } from '../stats.js';
import type { Scenario } from './scenario.js';
import { tagKeyOf } from '../../functions/model/tags.js';

const S = 'tags';
const fig = figureOf(S);
const ENTRIES = 500;
const FOLLOWERS = 500;
const LIMIT = 20;
const SAMPLES = 30;

export const tags: Scenario = {
  id: 'tags',
  title: `A ${ENTRIES}-entry tag's page, a tag fan-out to ${FOLLOWERS} followers, trending: each against its minimum`,
  async run(ctx) {
    return [...(await tagPage(ctx)), ...(await tagFanoutWrites(ctx)), ...(await trendingRead(ctx))];
  },
};

async function tagPage(ctx: BenchContext): Promise<Figure[]> {
  const tag = tagKeyOf(`bench${uid('tag').replace(/[^a-z0-9]/gi, '')}`);
  const reader = uid('tag-reader');
  const newest = nowTicks();
  const entries = Array.from({ length: ENTRIES }, (_, i) =>
    tagEntryOf({ ...benchOriginal(uid('tag-author', i % 50), newest - BigInt(i) * 1_000_000n, i), tags: [tag] }, tag),
  );
  await writeModelItems(ctx, ctx.stack.tableNames.feed, entries);
  const path = `/tags/${tag}/activities?limit=${LIMIT}`;
  const check = await ctx.call('GET', path, reader);
  if (check.status !== 200 || check.body?.items?.length !== LIMIT) throw new Error(`GET ${path}: ${check.status} ${JSON.stringify(check.body).slice(0, 300)}`);
  const byPk = 'pk = :pk';
  const rawPage = () =>
    rawQuery(ctx, { TableName: ctx.stack.tableNames.feed, KeyConditionExpression: byPk, values: { ':pk': tagFeedPartition(tag) }, Limit: LIMIT + 1 });
  const controls = {
    TableName: ctx.stack.tableNames.graph,
    KeyConditionExpression: byPk,
    values: { ':pk': controlPartition(reader) },
    ProjectionExpression: 'sk',
  };
  const minimum = (await rawPage()).read + (await rawQuery(ctx, controls)).read;
  const calls: number[] = [];
  const reads: number[] = [];
  const handler: number[] = [];
  const raw: number[] = [];
  const split: { ms: number; spent: CapacityTotals }[] = [];
  for (let s = 0; s < SAMPLES; s++) {
    const page = await meteredRoute(ctx, 'GET', path, reader);
    split.push(page);
    calls.push(page.calls);
    reads.push(page.read);
    handler.push((await ctx.handlerCapacity.unmetered(() => invokeRoute('GET', path, reader))).ms);
    raw.push((await timed(() => rawPage())).ms);
  }
  const readRatio = median(reads) / minimum;
  return [
    fig("tag page: DynamoDB calls (the page Query + the reader's controls, in parallel)", median(calls), 'calls', { target: '2', met: median(calls) === 2 }),
    fig(`tag page: read units / minimum (${round(minimum)} units: raw page Query + controls Query)`, round(readRatio), '×', { ...atMost(readRatio, 1.05) }),
    fig('tag page: handler p50', round(median(handler)), 'ms'),
    fig(`tag page: raw Query p50 (Limit ${LIMIT + 1})`, round(median(raw)), 'ms'),
    fig('tag page: handler / raw Query (p50)', round(median(handler) / median(raw)), '×', { note: `inside the handler (p50s): ${timeSplit(split)}` }),
  ];
}

async function tagFanoutWrites(ctx: BenchContext): Promise<Figure[]> {
  // Loaded here: handler-side modules read their env at load (after the stack starts).
  const { tagFanout } = await import('../../functions/services/tags/tag-fanout.js');
  const tag = tagKeyOf(`fan${uid('t').replace(/[^a-z0-9]/gi, '')}`);
  const followers = Array.from({ length: FOLLOWERS }, (_, i) => uid('tag-follower', i));
  const followEntries = followers.map((f) => ({ ...tagFollowerKey(tag, f), userId: f }));
  await writeModelItems(ctx, ctx.stack.tableNames.graph, followEntries);
  const author = uid('tag-poster');
  const posted = await ctx.call('POST', '/activities', author, { verb: 'post', content: 'no hashtag here' });
  if (posted.status !== 201) throw new Error(`POST /activities: ${posted.status}`);
  await quiesce(ctx);
  // The job copies the original as its check reads it, and only while it still carries the tag:
  // give it the tag, and let the tag fan-out that edit starts run out before the measured one.
  const key = { pk: `t#${author}`, rk: BigInt(posted.body.rangeKey) };
  await ctx.doc.send(
    new UpdateCommand({ TableName: ctx.stack.tableNames.feed, Key: key, UpdateExpression: 'SET tags = :t', ExpressionAttributeValues: { ':t': [tag] } }),
  );
  await quiesce(ctx);
  const { pk: _pk, ...image } = await storedItem(ctx, ctx.stack.tableNames.feed, key);
  const before = ctx.handlerCapacity.snapshot();
  await tagFanout({ kind: 'tagFanout', author, rk: String(posted.body.rangeKey), tag, image });
  await quiesce(ctx); // trims a copy write may start
  const spent = ctx.handlerCapacity.since(before);
  const perFollower = spent.write / FOLLOWERS;
  return [
    fig(`tag fan-out: write units per follower (${FOLLOWERS} followers; minimum 1 copy write each)`, round(perFollower), '×', {
      ...atMost(perFollower, 1.05),
      note: `${round(spent.write)} units in all: ${FOLLOWERS} copies, the tag entry, the trend counts; calls ${JSON.stringify(spent.calls)}`,
    }),
  ];
}

async function trendingRead(ctx: BenchContext): Promise<Figure[]> {
  const reader = uid('trend-reader');
  const check = await ctx.call('GET', '/tags/trending?window=24h', reader);
  if (check.status !== 200) throw new Error(`GET /tags/trending: ${check.status}`);
  const raw = await ctx.dynamo.send(
    new GetItemCommand({
      TableName: ctx.stack.tableNames.stats,
      Key: attributes(trendTopKey(trendBucket('24h', Date.now()).bucket)),
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  const minimum = raw.ConsumedCapacity?.CapacityUnits || 0.5;
  const { spent } = await meteredRoute(ctx, 'GET', '/tags/trending?window=24h', reader);
  const ratio = spent.read / minimum;
  return [
    fig(`trending: read units / minimum (one GetItem, ${minimum} units)`, round(ratio), '×', {
      ...atMost(ratio, 1.05),
      note: `calls ${JSON.stringify(spent.calls)}`,
    }),
  ];
}
