/**
 * WCU per post (the POST request) and per follower copy (its fan-out), the fan-out's reads, and a
 * post at 0 followers with its fan-out job, against the pricing rules for the items as stored.
 */
import { homeFeedKey } from '../../../functions/model/feed-copy.js';
import { followListPartition } from '../../../functions/model/follow-lists.js';
import { timelineKey } from '../../../functions/model/timeline-item.js';
import { type CapacityTotals, sumTags, type TagTotals } from '../../capacity.js';
import { type BenchContext, isTrimTag } from '../../context.js';
import { itemSize, queryReadUnits, writeUnits } from '../../dynamo-cost.js';
import { authorWithFollowers, benchActivity, postActivity, quiesce, rawQuery, storedItem, uid } from '../../fixtures.js';
import { waitForCopies } from '../../copies.js';
import { type Figure, progress, figureOf } from '../../report.js';
import { median, round, sum } from '../../stats.js';
import { FOLLOWERS, middle, ratioFigure, S, where } from './figures.js';

const fig = figureOf(S);

const POSTS = 6;

export interface PostingCost {
  measured: { wcu: number; rcu: number };
  minimum: { wcu: number; rcu: number };
  /** Distinct home-feed copies a post makes (followers + the author's own). */
  copies: number;
  trimAttemptsPerPost: number;
  trimRcuPerPost: number;
}

/** Rollups (stats table) are their own feature, measured per post at a rate by the rollups scenario. */
function withoutTable(t: CapacityTotals, table: string): CapacityTotals {
  const x = t.tables[table] ?? { read: 0, write: 0 };
  const tables = { ...t.tables };
  delete tables[table];
  // Transactions only ever go to the stats table (rollups) during a fan-out.
  const tags = { ...t.tags };
  delete tags.transaction;
  return { ...t, read: t.read - x.read, write: t.write - x.write, tables, tags };
}

export async function postCost(ctx: BenchContext, figures: Figure[]): Promise<PostingCost> {
  const { author, followers } = await authorWithFollowers(ctx, FOLLOWERS);
  const { feed, stats, graph } = ctx.stack.tableNames;
  const size = async (key: Record<string, unknown>) => itemSize(await storedItem(ctx, feed, key));
  const postSamples: CapacityTotals[] = [];
  const fanSamples: CapacityTotals[] = [];
  const sizes: { original: number; ownCopy: number; copy: number }[] = [];
  for (let i = 0; i < POSTS; i++) {
    progress(`  cost: post ${i + 1}/${POSTS}`);
    await quiesce(ctx);
    const { value: posted, spent } = await ctx.handlerCapacity.measure(() => postActivity(ctx, author, benchActivity(i)));
    const afterPost = ctx.handlerCapacity.snapshot();
    postSamples.push(spent);
    const rk = BigInt(posted.rangeKey);
    await waitForCopies(ctx, [{ rk: String(rk), owners: followers }]);
    await quiesce(ctx);
    fanSamples.push(withoutTable(ctx.handlerCapacity.since(afterPost), stats));
    sizes.push({
      original: await size(timelineKey(author, rk)),
      ownCopy: await size(homeFeedKey(author, rk)),
      copy: await size(homeFeedKey(followers[0]!, rk)),
    });
  }
  const sized = middle(sizes);
  // The follower list as stored: a Query is charged by the full items it reads.
  const list = await rawQuery(ctx, { TableName: graph, KeyConditionExpression: 'pk = :pk', values: { ':pk': followListPartition('followers', author) } });
  const listSizes = list.items.map(itemSize);
  const listMin = queryReadUnits(listSizes);

  const postMin = writeUnits(sized.original) + writeUnits(sized.ownCopy);
  const postW = median(postSamples.map((s) => s.write));
  const copyMin = writeUnits(sized.copy);
  const tagMedian = (tag: string, field: keyof TagTotals) => median(fanSamples.map((s) => s.tags[tag]?.[field] ?? 0));
  const listRead = tagMedian('follower list read', 'read');
  const trimAttempts = fanSamples.map((s) => s.tags['head read']?.calls ?? 0);
  const trimRcu = fanSamples.map((s) => sumTags(s, isTrimTag).read);
  const otherReads = ['batch get', 'original read', 'profile read']
    .map((t) => `${t}: ${tagMedian(t, 'calls')} calls, ${round(tagMedian(t, 'read'), 2)} RCU`)
    .join('; ');
  figures.push(
    ratioFigure({
      metric: 'WCU per post (the POST request)',
      measured: postW,
      minimum: postMin,
      target: 1.05,
      sizes: `original ${sized.original} B in t#author + own copy ${sized.ownCopy} B in f#author`,
      sample: middle(postSamples),
    }),
    ratioFigure({
      metric: 'WCU per follower copy (fan-out, feed table)',
      measured: median(fanSamples.map((s) => s.tables[feed]?.write ?? 0)) / FOLLOWERS,
      minimum: copyMin,
      target: 1.05,
      sizes: `copy ${sized.copy} B; ${tagMedian('copy writes', 'items')} copies written per post for ${FOLLOWERS} followers: the job's first page rewrites the author's own copy, which the POST already wrote`,
      sample: middle(fanSamples),
      per: FOLLOWERS,
    }),
    fig(
      `RCU per post for the follower list (${FOLLOWERS} entries, ${sum(listSizes)} B): meter ${round(listRead, 3)} vs rule minimum ${round(listMin, 3)}`,
      round(listRead / listMin, 3),
      '× min',
      { note: `${tagMedian('follower list read', 'calls')} Query of ${tagMedian('follower list read', 'scanned')} items` },
    ),
    fig('RCU per post in the fan-out besides the follower list', round(median(fanSamples.map((s) => s.read)) - listRead, 3), 'RCU', {
      note: `${otherReads} (strongly consistent: the liveness check before the page with the author's own copy in one batch get, the re-check after it, the pulled flag); trim attempts: ${trimAttempts.join('+')} over ${POSTS} posts, ${round(sum(trimRcu) / POSTS, 2)} RCU per post on average (feeds this small hold far fewer than N copies: the attempts read a little and delete nothing)`,
    }),
  );
  // A post by an author nobody follows: the request and its fan-out job together.
  const solo = uid('cost-solo');
  const soloSamples: CapacityTotals[] = [];
  for (let i = 0; i < 3; i++) {
    await quiesce(ctx);
    const { spent } = await ctx.handlerCapacity.measure(async () => {
      await postActivity(ctx, solo, benchActivity(i));
      await quiesce(ctx);
    });
    soloSamples.push(withoutTable(spent, stats));
  }
  const soloW = median(soloSamples.map((s) => s.write));
  figures.push(
    fig(
      `WCU per post at 0 followers, the request and its fan-out job together: meter ${round(soloW, 3)} vs rule minimum ${round(postMin, 3)}`,
      round(soloW / postMin, 3),
      '× min',
      {
        note: `the fan-out job's first page rewrites the author's own copy (functions/services/fanout/author-fanout.ts), which the POST already wrote; ${where(middle(soloSamples))}`,
      },
    ),
  );
  return {
    measured: { wcu: postW + median(fanSamples.map((s) => s.write)), rcu: median(postSamples.map((s) => s.read)) + median(fanSamples.map((s) => s.read)) },
    minimum: { wcu: postMin + FOLLOWERS * copyMin, rcu: listMin },
    copies: FOLLOWERS + 1,
    trimAttemptsPerPost: sum(trimAttempts) / POSTS,
    trimRcuPerPost: sum(trimRcu) / POSTS,
  };
}
