/**
 * Scenario 5 — cost. Consumed capacity (ReturnConsumedCapacity on the handlers' own client) per
 * post, per follower copy, per page and per trim, next to the minimum DynamoDB's documented rules
 * allow for the same items (bench/dynamo-cost.ts, sizes of the items actually stored), and
 * dollars per million posts at 200 followers each at on-demand prices. Each operation is measured
 * with the handlers otherwise quiet; the meter's call classifier (bench/context.ts) says where
 * the units went.
 *
 * Minimums (the data model in docs/data-model.md):
 *  - a POST: the original in the author's timeline + the author's own home-feed copy;
 *  - a follower copy: its own write; the follower list is read once per post (reported apart);
 *  - a push-only page: one Query reading limit + 1 copies (+ the small head item on a first page);
 *  - a trim: deleting what it deletes and reading those items' keys once (a Query is charged by the
 *    full size of every item it reads, projection or not).
 */
import { type AttributeValue, QueryCommand } from '@aws-sdk/client-dynamodb';
import { homeFeedKey, homeFeedPartition } from '../../functions/model/feed-copy.js';
import { feedHeadKey } from '../../functions/model/feed-head.js';
import { followListPartition } from '../../functions/model/follow-lists.js';
import { timelineKey } from '../../functions/model/timeline-item.js';
import { nowTicks } from '../../functions/platform/clock.js';
import { homeFeedPolicyOf } from '../../functions/services/retention/policy.js';
import { addTotals, type CapacityTotals, sumTags, type TagTotals } from '../capacity.js';
import { type BenchContext, isTrimTag } from '../context.js';
import { dollars, type Item, itemSize, onDemand, queryReadUnits, writeUnits } from '../dynamo-cost.js';
import {
  attributes,
  authorWithFollowers,
  benchActivity,
  benchCopy,
  benchFeed,
  benchOriginal,
  hasRoute,
  notMeasured,
  quiesce,
  stackFeedPolicy,
  uid,
  waitForCopies,
  writeModelItems,
} from '../fixtures.js';
import { invokeRoute } from '../invoke.js';
import { type Figure, progress } from '../report.js';
import { median, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'cost';
const FOLLOWERS = 200;
const POSTS = 6;
const PAGES = 10;
const LIMIT = 20;
const COLD_READERS = 5;
/** Copies beyond N + margin added before the measured trim ("or a bit more"). */
const TRIM_EXTRA = 50;
/** Copies written through writeCopies per feed in the amortized steady state, as multiples of N, and the feeds. */
const STEADY_COPIES_PER_N = 4;
const STEADY_FEEDS = 3;


interface PerPost {
  wcu: number;
  rcu: number;
}

export const cost: Scenario = {
  id: 'cost',
  title: `capacity per post / copy / page / trim vs the pricing-rule minimum; $ per million posts at ${FOLLOWERS} followers`,
  async run(ctx) {
    const figures: Figure[] = [];
    const posting = await postCost(ctx, figures);
    figures.push(...(await pageCost(ctx)));
    const steady = await trimCost(ctx, figures);
    if (posting) figures.push(...dollarFigures(posting, steady));
    return figures;
  },
};

// ---- posts and copies ----------------------------------------------------------------------------

interface PostingCost {
  measured: PerPost;
  minimum: PerPost;
  copyBytes: number;
  /** Distinct home-feed copies a post makes (followers + the author's own). */
  copies: number;
  trimAttemptsPerPost: number;
  trimRcuPerPost: number;
}

async function postCost(ctx: BenchContext, figures: Figure[]): Promise<PostingCost | undefined> {
  if (!hasRoute('POST', '/activities')) {
    figures.push(notMeasured(S, 'WCU per post', 'POST /activities is not in this build', '≤ 1.05 × min'));
    return undefined;
  }
  if (!hasRoute('PUT', '/following/{userId}')) {
    figures.push(notMeasured(S, 'WCU per follower copy', 'PUT /following is not in this build', '≤ 1.05 × min'));
    return undefined;
  }
  const { author, followers } = await authorWithFollowers(ctx, FOLLOWERS);
  const feed = ctx.stack.tableNames.feed;
  const stats = ctx.stack.tableNames.stats;
  const postSamples: CapacityTotals[] = [];
  const fanSamples: CapacityTotals[] = [];
  const sizes: { original: number; ownCopy: number; copy: number }[] = [];
  for (let i = 0; i < POSTS; i++) {
    progress(`  cost: post ${i + 1}/${POSTS}`);
    await quiesce(ctx);
    const before = ctx.handlerCapacity.snapshot();
    const res = await ctx.call('POST', '/activities', author, benchActivity(i));
    if (res.status !== 201) throw new Error(`POST /activities: ${res.status}`);
    const afterPost = ctx.handlerCapacity.snapshot();
    postSamples.push(ctx.handlerCapacity.since(before));
    const rk = BigInt(res.body.rangeKey);
    const drained = await waitForCopies(ctx, followers, String(rk));
    if (drained.missing) throw new Error(`${drained.missing} copies missing`);
    await quiesce(ctx);
    // Rollups (stats table) are their own feature; the fan-out is everything else after the 201.
    const afterAll = ctx.handlerCapacity.since(afterPost);
    fanSamples.push(withoutTable(afterAll, stats));
    const get = async (key: Record<string, unknown>) => {
      const out = await ctx.dynamo.send(new QueryCommand({ TableName: feed, KeyConditionExpression: 'pk = :pk AND rk = :rk', ExpressionAttributeValues: attributes({ ':pk': key.pk, ':rk': key.rk }) }));
      if (!out.Items?.[0]) throw new Error(`no item at ${String(key.pk)} / ${String(key.rk)}`);
      return itemSize(out.Items[0] as Item);
    };
    sizes.push({ original: await get(timelineKey(author, rk)), ownCopy: await get(homeFeedKey(author, rk)), copy: await get(homeFeedKey(followers[0]!, rk)) });
  }
  const size = sizes[Math.floor(sizes.length / 2)]!;
  // The follower list as stored: a Query is charged by the full items it reads.
  const list = await ctx.dynamo.send(
    new QueryCommand({ TableName: ctx.stack.tableNames.graph, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: attributes({ ':pk': followListPartition('followers', author) }) }),
  );
  const listSizes = (list.Items ?? []).map((i) => itemSize(i as Item));
  const listMin = queryReadUnits(listSizes);

  // Row: WCU per post.
  const postMin = writeUnits(size.original) + writeUnits(size.ownCopy);
  const postW = median(postSamples.map((s) => s.write));
  const postR = median(postSamples.map((s) => s.read));
  figures.push(
    ratioFigure({
      metric: 'WCU per post (the POST request)',
      measured: postW,
      minimum: postMin,
      target: 1.05,
      sizes: `original ${size.original} B in t#author + own copy ${size.ownCopy} B in f#author`,
      sample: middle(postSamples),
    }),
  );

  // Row: WCU per follower copy.
  const fanW = fanSamples.map((s) => s.tables[feed]?.write ?? 0);
  const copyMin = writeUnits(size.copy);
  const copiesWritten = median(fanSamples.map((s) => s.tags['copy writes']?.items ?? 0));
  figures.push(
    ratioFigure({
      metric: 'WCU per follower copy (fan-out, feed table)',
      measured: median(fanW) / FOLLOWERS,
      minimum: copyMin,
      target: 1.05,
      sizes: `copy ${size.copy} B; ${copiesWritten} copies written per post for ${FOLLOWERS} followers: the job's first page rewrites the author's own copy, which the POST already wrote`,
      sample: middle(fanSamples),
      per: FOLLOWERS,
    }),
  );

  // The fan-out's reads, apart from the copies.
  const tagMedian = (tag: string, field: keyof TagTotals) => median(fanSamples.map((s) => s.tags[tag]?.[field] ?? 0));
  const listRead = tagMedian('follower list read', 'read');
  figures.push({
    scenario: S,
    metric: `RCU per post for the follower list (${FOLLOWERS} entries, ${listSizes.reduce((a, b) => a + b, 0)} B): meter ${round(listRead, 3)} vs rule minimum ${round(listMin, 3)}`,
    value: round(listRead / listMin, 3),
    unit: '× min',
    note: `${tagMedian('follower list read', 'calls')} Query of ${tagMedian('follower list read', 'scanned')} items`,
  });
  const trimAttempts = fanSamples.map((s) => s.tags['head read']?.calls ?? 0);
  const trimRcu = fanSamples.map((s) => sumTags(s, isTrimTag).read);
  const otherReads = ['batch get', 'original read', 'profile read'].map((t) => `${t}: ${tagMedian(t, 'calls')} calls, ${round(tagMedian(t, 'read'), 2)} RCU`).join('; ');
  figures.push({
    scenario: S,
    metric: 'RCU per post in the fan-out besides the follower list',
    value: round(median(fanSamples.map((s) => s.read)) - listRead, 3),
    unit: 'RCU',
    note: `${otherReads} (strongly consistent: the liveness check before the page with the author's own copy in one batch get, the re-check after it, the pulled flag); trim attempts: ${trimAttempts.join('+')} over ${POSTS} posts, ${round(trimRcu.reduce((a, b) => a + b, 0) / POSTS, 2)} RCU per post on average (feeds this small hold far fewer than N copies: the attempts read a little and delete nothing)`,
  });
  // A post by an author nobody follows: the request and its fan-out job together.
  const solo = uid('cost-solo');
  const soloSamples: CapacityTotals[] = [];
  for (let i = 0; i < 3; i++) {
    await quiesce(ctx);
    const before = ctx.handlerCapacity.snapshot();
    const res = await ctx.call('POST', '/activities', solo, benchActivity(i));
    if (res.status !== 201) throw new Error(`POST /activities: ${res.status}`);
    await quiesce(ctx);
    soloSamples.push(withoutTable(ctx.handlerCapacity.since(before), stats));
  }
  const soloW = median(soloSamples.map((s) => s.write));
  figures.push({
    scenario: S,
    metric: `WCU per post at 0 followers, the request and its fan-out job together: meter ${round(soloW, 3)} vs rule minimum ${round(postMin, 3)}`,
    value: round(soloW / postMin, 3),
    unit: '× min',
    note: `the fan-out job's first page rewrites the author's own copy (functions/services/fanout/fanout.ts), which the POST already wrote; ${where(middle(soloSamples))}`,
  });

  // Rollups (stats table) are written once per tumbling window, not per post: the rollups
  // scenario measures their write units per post at a post rate.
  return {
    measured: { wcu: postW + median(fanSamples.map((s) => s.write)), rcu: postR + median(fanSamples.map((s) => s.read)) },
    minimum: { wcu: postMin + FOLLOWERS * copyMin, rcu: listMin },
    copyBytes: size.copy,
    copies: FOLLOWERS + 1,
    trimAttemptsPerPost: trimAttempts.reduce((a, b) => a + b, 0) / POSTS,
    trimRcuPerPost: trimRcu.reduce((a, b) => a + b, 0) / POSTS,
  };
}

function withoutTable(t: CapacityTotals, table: string): CapacityTotals {
  const x = t.tables[table] ?? { read: 0, write: 0 };
  const tables = { ...t.tables };
  delete tables[table];
  // Transactions only ever go to the stats table (rollups) during a fan-out.
  const tags = { ...t.tags };
  delete tags.transaction;
  return { ...t, read: t.read - x.read, write: t.write - x.write, tables, tags };
}

const middle = <T>(xs: T[]): T => xs[Math.floor(xs.length / 2)]!;

/** Where the units went, e.g. "copy writes 201 calls… ". */
function where(t: CapacityTotals, per = 1): string {
  const tables = Object.entries(t.tables)
    .map(([name, u]) => `${name.replace(/^tickfeed-/, '')} ${round(u.write / per, 3)} W ${round(u.read / per, 3)} R`)
    .join(', ');
  const tags = Object.entries(t.tags)
    .map(([tag, u]) => `${tag} ×${u.calls}${u.items ? ` (${u.items} items)` : ''}${u.scanned ? ` (${u.scanned} read)` : ''}: ${round(u.write, 2)} W ${round(u.read, 2)} R`)
    .join('; ');
  return per === 1 ? `${tables}; ${tags}` : `per follower: ${tables}; per post: ${tags}`;
}

function ratioFigure(f: { metric: string; measured: number; minimum: number; target: number; sizes: string; sample?: CapacityTotals; per?: number; unitName?: string }): Figure {
  const ratio = f.measured / f.minimum;
  const met = ratio <= f.target;
  return {
    scenario: S,
    metric: `${f.metric}: meter ${round(f.measured, 3)} vs rule minimum ${round(f.minimum, 3)}`,
    value: round(ratio, 3),
    unit: '× min',
    target: `≤ ${f.target} × min`,
    met,
    note: `${f.sizes}${f.sample ? `; ${where(f.sample, f.per)}` : ''}`,
  };
}

// ---- pages ------------------------------------------------------------------------------------

/**
 * GET /feed for push-only readers with 200 copies: a first page, a `before` page right after it
 * (the handler then knows the reader's pulled set from its head cache) and, apart, `before` pages
 * of readers this handler instance has not seen in HEAD_CACHE_MS (it reads the head in parallel).
 */
async function pageCost(ctx: BenchContext): Promise<Figure[]> {
  if (!hasRoute('GET', '/feed')) return [notMeasured(S, 'RCU per page', 'GET /feed is not in this build', '≤ 1.05 × min')];
  const { recordTrimTop } = await import('../../functions/stores/feed-store.js');
  const feed = ctx.stack.tableNames.feed;
  const withHead = uid('cost-reader-head');
  const noHead = uid('cost-reader-nohd');
  const cold = Array.from({ length: COLD_READERS }, (_, i) => uid('cost-reader-cold', i));
  const seeded = new Map<string, Record<string, unknown>[]>();
  for (const reader of [withHead, noHead, ...cold]) {
    const items = benchFeed(ctx, reader, uid('cost-page-author'), 200, nowTicks(), 1_000_000n);
    seeded.set(reader, items);
    await writeModelItems(ctx, feed, items);
  }
  // A steady-state feed has a head: `top`, the newest copy when its last trim ran (here: its newest).
  for (const reader of [withHead, ...cold]) await recordTrimTop(reader, seeded.get(reader)![0]!.rk as bigint);
  await quiesce(ctx);

  const rawSizes = async (owner: string, limit: number, after?: bigint) => {
    const out = await ctx.dynamo.send(
      new QueryCommand({
        TableName: feed,
        KeyConditionExpression: after === undefined ? 'pk = :pk' : 'pk = :pk AND rk > :c',
        ExpressionAttributeValues: attributes({ ':pk': homeFeedPartition(owner), ...(after === undefined ? {} : { ':c': after }) }),
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map((i) => itemSize(i as Item));
  };
  const figures: Figure[] = [];
  const sampleFirstAndBefore = async (reader: string) => {
    const first: CapacityTotals[] = [];
    const next: CapacityTotals[] = [];
    let cursor = '';
    for (let i = 0; i < PAGES; i++) {
      let before = ctx.handlerCapacity.snapshot();
      const a = await invokeRoute('GET', `/feed?limit=${LIMIT}`, reader);
      first.push(ctx.handlerCapacity.since(before));
      if (a.status !== 200 || a.body.items.length !== LIMIT) throw new Error(`GET /feed: ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`);
      cursor = a.body.items.at(-1).rangeKey;
      before = ctx.handlerCapacity.snapshot();
      const b = await invokeRoute('GET', `/feed?limit=${LIMIT}&before=${cursor}`, reader);
      next.push(ctx.handlerCapacity.since(before));
      if (b.status !== 200 || b.body.items.length !== LIMIT) throw new Error(`GET /feed before: ${b.status}`);
    }
    return { first, next, cursor: BigInt(cursor) };
  };
  const calls = (s: CapacityTotals) => Object.values(s.calls).reduce((a, b) => a + b, 0);
  const scanned = (s: CapacityTotals) => Object.values(s.tags).reduce((a, t) => a + t.scanned, 0);

  // With a head item (rk 0): the first page's Query returns it with the page.
  const h = await sampleFirstAndBefore(withHead);
  const firstMinSizes = await rawSizes(withHead, LIMIT + 2); // the head + limit + 1 copies
  const beforeMinSizes = await rawSizes(withHead, LIMIT + 1, h.cursor);
  figures.push(
    ratioFigure({
      metric: `RCU per first page (push-only reader, limit ${LIMIT}, head item present)`,
      measured: median(h.first.map((s) => s.read)),
      minimum: queryReadUnits(firstMinSizes),
      target: 1.05,
      sizes: `minimum: one Query of the head (${firstMinSizes[0]} B) + ${LIMIT + 1} copies, ${firstMinSizes.reduce((a, b) => a + b, 0)} B; items read ${median(h.first.map(scanned))} vs ${LIMIT + 2}`,
      sample: middle(h.first),
    }),
    ratioFigure({
      metric: `RCU per before page right after a first page (limit ${LIMIT})`,
      measured: median(h.next.map((s) => s.read)),
      minimum: queryReadUnits(beforeMinSizes),
      target: 1.05,
      sizes: `minimum: one Query of ${LIMIT + 1} copies, ${beforeMinSizes.reduce((a, b) => a + b, 0)} B; items read ${median(h.next.map(scanned))} vs ${LIMIT + 1} (a before page asks for limit + 1, one for "more"; only a first page also asks one for the head at rk 0)`,
      sample: middle(h.next),
    }),
    {
      scenario: S,
      metric: 'DynamoDB calls per first page (push-only reader)',
      value: median(h.first.map(calls)),
      unit: 'calls',
      target: '1',
      met: median(h.first.map(calls)) === 1,
      note: `calls ${JSON.stringify(middle(h.first).calls)}: the head (pulled set) comes back in the page's Query`,
    },
    {
      scenario: S,
      metric: 'DynamoDB calls per before page right after a first page',
      value: median(h.next.map(calls)),
      unit: 'calls',
      target: '1',
      met: median(h.next.map(calls)) === 1,
      note: `calls ${JSON.stringify(middle(h.next).calls)}: the first page put the reader's pulled set in this instance's head cache (HEAD_CACHE_MS 30 s), so no head read`,
    },
  );

  // Without a head item (a feed never trimmed, no pulled follow): the first page reads one copy more.
  const n = await sampleFirstAndBefore(noHead);
  const noHeadMin = await rawSizes(noHead, LIMIT + 1);
  figures.push(
    ratioFigure({
      metric: `RCU per first page (push-only reader, no head item yet)`,
      measured: median(n.first.map((s) => s.read)),
      minimum: queryReadUnits(noHeadMin),
      target: 1.05,
      sizes: `minimum: ${LIMIT + 1} copies, ${noHeadMin.reduce((a, b) => a + b, 0)} B; items read ${median(n.first.map(scanned))} vs ${LIMIT + 1}`,
      sample: middle(n.first),
    }),
  );

  // Cold cache: a before page of a reader this instance has not served a first page to lately.
  const coldSamples: CapacityTotals[] = [];
  let coldMin = 0;
  for (const reader of cold) {
    const cursor = seeded.get(reader)![LIMIT - 1]!.rk as bigint;
    const before = ctx.handlerCapacity.snapshot();
    const res = await invokeRoute('GET', `/feed?limit=${LIMIT}&before=${cursor}`, reader);
    coldSamples.push(ctx.handlerCapacity.since(before));
    if (res.status !== 200) throw new Error(`GET /feed cold: ${res.status}`);
    coldMin = queryReadUnits(await rawSizes(reader, LIMIT + 1, cursor));
  }
  figures.push({
    scenario: S,
    metric: `before page with a cold head cache (no first page by this reader on this instance in 30 s): calls, RCU meter ${round(median(coldSamples.map((s) => s.read)), 3)} vs page minimum ${round(coldMin, 3)}`,
    value: median(coldSamples.map(calls)),
    unit: 'calls',
    note: `calls ${JSON.stringify(middle(coldSamples).calls)}: the head is read with GetItem in parallel with the page's Query (not in series)`,
  });
  return figures;
}

// ---- trims ------------------------------------------------------------------------------------

interface SteadyTrim {
  /** Trim write and read units per copy deleted (every copy is deleted once in a full feed). */
  wcuPerDeleted: number;
  rcuPerDeleted: number;
  /** The rule minimum of the same: the delete, and reading the key once. */
  minWcuPerDeleted: number;
  minRcuPerDeleted: number;
}

/** Keys of the copies in `owner`'s home feed (the head excluded), raw client, not metered. */
async function feedKeys(ctx: BenchContext, owner: string): Promise<bigint[]> {
  const out: bigint[] = [];
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await ctx.dynamo.send(
      new QueryCommand({
        TableName: ctx.stack.tableNames.feed,
        KeyConditionExpression: 'pk = :pk AND rk > :head',
        ExpressionAttributeValues: attributes({ ':pk': homeFeedPartition(owner), ':head': feedHeadKey(owner).rk }),
        ProjectionExpression: 'rk',
        ExclusiveStartKey: start,
      }),
    );
    for (const i of page.Items ?? []) out.push(BigInt(i.rk!.N!));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/**
 * Trims of one home feed with N = FEED_MAX_ITEMS of the stack (services/retention/trim.ts):
 *  1. the first trim of a feed of 2N + margin copies (no top yet);
 *  2. the steady state: the head holds that trim's `top` (the newest copy then) and
 *     N + margin + TRIM_EXTRA newer copies arrived since; this trim is measured;
 *  3. amortized: STEADY_COPIES_PER_N × N more copies written through writeCopies itself
 *     (home-feed-copies.ts), one call per stretch ending at a copy whose key starts a trim, so
 *     attempts happen exactly where production starts them; every trim unit is summed against
 *     what was deleted.
 */
async function trimCost(ctx: BenchContext, figures: Figure[]): Promise<SteadyTrim | undefined> {
  const n = stackFeedPolicy(ctx).maxItems;
  if (n === undefined) {
    figures.push(notMeasured(S, 'RCU per trim', 'FEED_MAX_ITEMS is off in this stack', '≤ 2 × min'));
    return undefined;
  }
  const { trimHomeFeed, startsTrim } = await import('../../functions/services/retention/trim.js');
  const { writeCopies } = await import('../../functions/services/home-feed-copies.js');
  const policy = homeFeedPolicyOf(n);
  const margin = policy.margin;
  const feed = ctx.stack.tableNames.feed;
  const owner = uid('cost-trim');
  const author = uid('cost-trim-author');
  const sizeOf = new Map<bigint, number>();
  const track = (items: Record<string, unknown>[]) => {
    for (const i of items) sizeOf.set(i.rk as bigint, itemSize(attributes(i)));
    return items;
  };
  const t0 = nowTicks();
  const deletedSizes = (before: bigint[], after: bigint[]) => {
    const kept = new Set(after.map(String));
    return before.filter((rk) => !kept.has(String(rk))).map((rk) => sizeOf.get(rk)!);
  };
  const trimFigures = (label: string, spent: CapacityTotals, deleted: number[], result: { deleted: number; examined: number }): Figure[] => {
    const t = sumTags(spent, isTrimTag);
    const minW = deleted.reduce((s, b) => s + writeUnits(b), 0);
    const minR = queryReadUnits(deleted);
    const scan = spent.tags['trim key scan'];
    // What the trim's own rule reads: the N it keeps (and the rest of its region), then what it deletes.
    const needed = n + deleted.length;
    const overRead =
      scan && scan.scanned > needed
        ? `; ${scan.scanned - needed} items more than the trim uses: copyKeys pages with Limit ${Math.min(n + margin, 1000)} and queryAll (platform/dynamo/query.ts) keeps that Limit on later pages instead of asking only for what is still missing`
        : '';
    return [
      ratioFigure({
        metric: `RCU per trim, ${label}`,
        measured: t.read,
        minimum: minR,
        target: 2,
        sizes: `deletes ${deleted.length} copies of ~${deleted[0]} B (trimHomeFeed says deleted ${result.deleted}, examined ${result.examined}); key scans: ${scan?.calls ?? 0} Queries read ${scan?.scanned ?? 0} items for ${deleted.length} deletions${overRead}`,
        sample: spent,
      }),
      ratioFigure({ metric: `WCU per trim, ${label}`, measured: t.write, minimum: minW, target: 1.05, sizes: `${deleted.length} deletes + the head's top update` }),
    ];
  };

  // 1. The first trim: 2N + margin copies, no top.
  progress('  cost: trim 1/3 (first trim of a feed)');
  const first = track(benchFeed(ctx, owner, author, 2 * n + margin, t0 - 60_000_000_000n, 1_000_000n));
  await writeModelItems(ctx, feed, first);
  await quiesce(ctx);
  let keysBefore = await feedKeys(ctx, owner);
  let before = ctx.handlerCapacity.snapshot();
  const r1 = await trimHomeFeed(owner, policy);
  const spent1 = ctx.handlerCapacity.since(before);
  let keysAfter = await feedKeys(ctx, owner);
  if (keysAfter.length !== n || String(keysAfter[0]) !== String(first[0]!.rk)) throw new Error(`first trim left ${keysAfter.length} copies (want the ${n} newest)`);
  figures.push(...trimFigures(`first trim of a feed (${2 * n + margin} copies, no top yet)`, spent1, deletedSizes(keysBefore, keysAfter), r1));

  // 2. The measured steady-state trim: the head holds the last trim's top; N + margin + extra newer copies.
  progress('  cost: trim 2/3 (steady state)');
  const added = track(benchFeed(ctx, owner, author, n + margin + TRIM_EXTRA, t0 - 30_000_000_000n, 1_000_000n));
  await writeModelItems(ctx, feed, added);
  await quiesce(ctx);
  keysBefore = await feedKeys(ctx, owner);
  before = ctx.handlerCapacity.snapshot();
  const r2 = await trimHomeFeed(owner, policy);
  const spent2 = ctx.handlerCapacity.since(before);
  keysAfter = await feedKeys(ctx, owner);
  if (keysAfter.length !== n || String(keysAfter[0]) !== String(added[0]!.rk)) throw new Error(`steady-state trim left ${keysAfter.length} copies (want the ${n} newest)`);
  figures.push(
    ...trimFigures(`steady state (head top from the previous trim; ${n + margin + TRIM_EXTRA} newer copies; N ${n}, margin ${margin})`, spent2, deletedSizes(keysBefore, keysAfter), r2),
  );

  // 3. Amortized over the trim attempts writeCopies starts, on STEADY_FEEDS feeds in the steady
  //    state (N copies, the head's top at the newest): this feed, and more seeded that way.
  const { recordTrimTop } = await import('../../functions/stores/feed-store.js');
  const envPolicy = stackFeedPolicy(ctx);
  const owners = [owner];
  for (let k = 1; k < STEADY_FEEDS; k++) {
    const other = uid('cost-trim', k);
    const items = track(benchFeed(ctx, other, author, n, t0 - 20_000_000_000n, 1_000_000n));
    await writeModelItems(ctx, feed, items);
    await recordTrimTop(other, items[0]!.rk as bigint);
    owners.push(other);
  }
  const perFeed = STEADY_COPIES_PER_N * n;
  const attemptLogs: string[] = [];
  let spent3: CapacityTotals | undefined;
  const deleted: number[] = [];
  let heldAtEnd = 0;
  for (const [k, o] of owners.entries()) {
    progress(`  cost: trim 3/3 (amortized through writeCopies), feed ${k + 1}/${owners.length}`);
    const originals = Array.from({ length: perFeed }, (_, i) => benchOriginal(author, nowTicks(), i)); // oldest first, as posted
    const stretches: (typeof originals)[] = [[]];
    for (const x of originals) {
      stretches.at(-1)!.push(x);
      if (startsTrim(o, x.rk, envPolicy) || stretches.at(-1)!.length >= 500) stretches.push([]);
    }
    const keysBeforeFeed = await feedKeys(ctx, o);
    await quiesce(ctx);
    const b0 = ctx.handlerCapacity.snapshot();
    const log: string[] = [];
    let sinceTrim = 0; // copies above the head's top: written since the last trim
    for (const stretch of stretches) {
      if (stretch.length === 0) continue;
      // writeCopies stores the model's copy with the stack's TTL: benchCopy builds the same (for its size).
      track(stretch.map((source) => benchCopy(ctx, source, o)));
      const b = ctx.handlerCapacity.snapshot();
      await writeCopies(stretch.map((source) => ({ owner: o, source })));
      sinceTrim += stretch.length;
      const d = ctx.handlerCapacity.since(b);
      if (d.tags['head read']) {
        log.push(`${sinceTrim}→${d.tags['trim key scan']?.scanned ?? 0}/${d.tags['copy deletes']?.items ?? 0}`);
        if ((d.tags['trim top']?.calls ?? 0) > 0) sinceTrim = 0;
      }
    }
    const spent = ctx.handlerCapacity.since(b0);
    spent3 = spent3 ? addTotals(spent3, spent) : spent;
    const keysAfterFeed = await feedKeys(ctx, o);
    deleted.push(...deletedSizes([...keysBeforeFeed, ...originals.map((x) => x.rk)], keysAfterFeed));
    heldAtEnd += keysAfterFeed.length;
    const newestKept = keysAfterFeed.slice(0, n).map(String);
    const newestWritten = originals.slice(-n).reverse().map((x) => String(x.rk));
    if (newestKept.join() !== newestWritten.join()) throw new Error('amortized trims did not keep the N newest copies');
    attemptLogs.push(`feed ${k + 1}: ${log.join(', ') || 'none'}`);
  }
  const t = sumTags(spent3!, isTrimTag);
  const attempts = spent3!.tags['head read']?.calls ?? 0;
  const trims = spent3!.tags['trim top']?.calls ?? 0;
  const scanned = spent3!.tags['trim key scan']?.scanned ?? 0;
  const minW = deleted.reduce((s, b) => s + writeUnits(b), 0);
  const minR = queryReadUnits(deleted);
  figures.push(
    ratioFigure({
      metric: `RCU of trims amortized over ${owners.length} feeds × ${perFeed} copies written through writeCopies (attempts where production starts them)`,
      measured: t.read,
      minimum: minR,
      target: 2,
      sizes: `${attempts} attempts, ${trims} of them trimmed; ${deleted.length} copies deleted; key scans read ${scanned} items (${round(scanned / Math.max(1, deleted.length), 2)} per deletion); per attempt, copies written since the last trim → items read / deleted: ${attemptLogs.join('; ')}; the feeds hold ${heldAtEnd} copies at the end`,
      sample: withoutTags(spent3!, (tag) => !isTrimTag(tag)),
    }),
    ratioFigure({ metric: `WCU of those trims vs their deletes`, measured: t.write, minimum: minW, target: 1.05, sizes: `${deleted.length} deletes + ${trims} top updates` }),
  );
  return {
    wcuPerDeleted: t.write / deleted.length,
    rcuPerDeleted: t.read / deleted.length,
    minWcuPerDeleted: minW / deleted.length,
    minRcuPerDeleted: minR / deleted.length,
  };
}

function withoutTags(t: CapacityTotals, drop: (tag: string) => boolean): CapacityTotals {
  return { ...t, tags: Object.fromEntries(Object.entries(t.tags).filter(([k]) => !drop(k))) };
}

// ---- dollars ----------------------------------------------------------------------------------

function dollarFigures(p: PostingCost, steady: SteadyTrim | undefined): Figure[] {
  const prices = `$${onDemand.dollarsPerMillionWrites}/M write units, $${onDemand.dollarsPerMillionReads}/M read units, on-demand`;
  const meter = dollars(1e6, p.measured.wcu, p.measured.rcu);
  const min = dollars(1e6, p.minimum.wcu, p.minimum.rcu);
  const figures: Figure[] = [
    { scenario: S, metric: `$ per million posts at ${FOLLOWERS} followers (meter; ${prices})`, value: round(meter, 2), unit: '$' },
    { scenario: S, metric: `$ per million posts at ${FOLLOWERS} followers (rule minimum)`, value: round(min, 2), unit: '$' },
    {
      scenario: S,
      metric: `$ per million posts at ${FOLLOWERS} followers: meter / rule minimum`,
      value: round(meter / min, 3),
      unit: '× min',
      target: '≤ 1.05 × min',
      met: meter / min <= 1.05,
      note: `per post: meter ${round(p.measured.wcu, 2)} WCU + ${round(p.measured.rcu, 2)} RCU vs minimum ${round(p.minimum.wcu, 2)} WCU + ${round(p.minimum.rcu, 2)} RCU; trim attempts ${round(p.trimAttemptsPerPost, 2)} per post, ${round(p.trimRcuPerPost, 2)} RCU per post (in the meter figure)`,
    },
  ];
  if (steady) {
    // Full feeds: each of a post's copies is later deleted by a count trim, which also reads.
    const w = p.measured.wcu + p.copies * steady.wcuPerDeleted;
    const r = p.measured.rcu + p.copies * steady.rcuPerDeleted;
    const mw = p.minimum.wcu + p.copies * steady.minWcuPerDeleted;
    const mr = p.minimum.rcu + p.copies * steady.minRcuPerDeleted;
    const ratio = dollars(1e6, w, r) / dollars(1e6, mw, mr);
    figures.push({
      scenario: S,
      metric: `$ per million posts at ${FOLLOWERS} followers with full feeds (projection: + each of the ${p.copies} copies deleted by a count trim, at the amortized trim cost above): meter $${round(dollars(1e6, w, r), 2)} vs rule minimum $${round(dollars(1e6, mw, mr), 2)}`,
      value: round(ratio, 3),
      unit: '× min',
      target: '≤ 1.05 × min',
      met: ratio <= 1.05,
      note: `per deleted copy: trims ${round(steady.wcuPerDeleted, 3)} WCU + ${round(steady.rcuPerDeleted, 3)} RCU vs minimum ${round(steady.minWcuPerDeleted, 3)} WCU + ${round(steady.minRcuPerDeleted, 3)} RCU`,
    });
  }
  return figures;
}
