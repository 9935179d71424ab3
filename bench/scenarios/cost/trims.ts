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
import { homeFeedPartition } from '../../../functions/model/feed-copy.js';
import { feedHeadKey } from '../../../functions/model/feed-head.js';
import { nowTicks } from '../../../functions/platform/clock.js';
import { homeFeedPolicyOf } from '../../../functions/services/retention/retention-policy.js';
import { sumTags } from '../../capacity.js';
import { type BenchContext, isTrimTag } from '../../context.js';
import { itemSize, queryReadUnits, writeUnits } from '../../dynamo-cost.js';
import { attributes, benchCopy, benchFeed, benchOriginal, quiesce, rawQuery, stackFeedPolicy, uid, writeModelItems } from '../../fixtures.js';
import { type Figure, progress } from '../../report.js';
import { round } from '../../stats.js';
import { ratioFigure } from './figures.js';

/** Copies beyond N + margin added before the measured trim ("or a bit more"). */
const TRIM_EXTRA = 50;
/** Copies written through writeCopies per feed in the amortized steady state, as multiples of N, and the feeds. */
const STEADY_COPIES_PER_N = 4;
const STEADY_FEEDS = 3;

/** Trim units per copy deleted (every copy is deleted once in a full feed), and the rules' minimum of the same. */
export interface SteadyTrim {
  wcuPerDeleted: number;
  rcuPerDeleted: number;
  minWcuPerDeleted: number;
  minRcuPerDeleted: number;
}

/** Keys of the copies in `owner`'s home feed (the head excluded), raw client, not metered. */
async function feedKeys(ctx: BenchContext, owner: string): Promise<bigint[]> {
  const { items } = await rawQuery(ctx, {
    TableName: ctx.stack.tableNames.feed,
    KeyConditionExpression: 'pk = :pk AND rk > :head',
    values: { ':pk': homeFeedPartition(owner), ':head': feedHeadKey(owner).rk },
    ProjectionExpression: 'rk',
  });
  return items.map((i) => BigInt(i.rk!.N!));
}

const minimumOf = (deleted: number[]) => ({ write: deleted.reduce((s, b) => s + writeUnits(b), 0), read: queryReadUnits(deleted) });

export async function trimCost(ctx: BenchContext, figures: Figure[]): Promise<SteadyTrim> {
  const n = stackFeedPolicy(ctx).maxItems;
  if (n === undefined) throw new Error('FEED_MAX_ITEMS is off in the bench stack: no trim to measure');
  const { trimHomeFeed, startsTrim } = await import('../../../functions/services/retention/trim.js');
  const { writeCopies } = await import('../../../functions/services/home-feed-copies.js');
  const { recordTrimTop } = await import('../../../functions/stores/feed-store.js');
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
  /** Seeds `count` copies ending `agoNs` before t0, trims once, checks the N newest are kept; returns its figures. */
  const measuredTrim = async (label: string, count: number, agoNs: bigint): Promise<Figure[]> => {
    const items = track(benchFeed(ctx, owner, author, count, t0 - agoNs));
    await writeModelItems(ctx, feed, items);
    await quiesce(ctx);
    const keysBefore = await feedKeys(ctx, owner);
    const before = ctx.handlerCapacity.snapshot();
    const result = await trimHomeFeed(owner, policy);
    const spent = ctx.handlerCapacity.since(before);
    const keysAfter = await feedKeys(ctx, owner);
    if (keysAfter.length !== n || String(keysAfter[0]) !== String(items[0]!.rk))
      throw new Error(`${label}: ${keysAfter.length} copies left (want the ${n} newest)`);
    const deleted = deletedSizes(keysBefore, keysAfter);
    const t = sumTags(spent, isTrimTag);
    const min = minimumOf(deleted);
    const scan = spent.tags['trim key scan'];
    // What the trim's own rule reads: the N it keeps (and the rest of its region), then what it deletes.
    const overRead =
      scan && scan.scanned > n + deleted.length
        ? `; ${scan.scanned - n - deleted.length} items more than the trim uses: copyKeys pages with Limit ${Math.min(n + margin, 1000)} and queryAll (platform/dynamo/query.ts) keeps that Limit on later pages instead of asking only for what is still missing`
        : '';
    return [
      ratioFigure({
        metric: `RCU per trim, ${label}`,
        measured: t.read,
        minimum: min.read,
        target: 2,
        sizes: `deletes ${deleted.length} copies of ~${deleted[0]} B (trimHomeFeed says deleted ${result.deleted}, examined ${result.examined}); key scans: ${scan?.calls ?? 0} Queries read ${scan?.scanned ?? 0} items for ${deleted.length} deletions${overRead}`,
        sample: spent,
      }),
      ratioFigure({
        metric: `WCU per trim, ${label}`,
        measured: t.write,
        minimum: min.write,
        target: 1.05,
        sizes: `${deleted.length} deletes + the head's top update`,
      }),
    ];
  };

  progress('  cost: trim 1/3 (first trim of a feed)');
  figures.push(...(await measuredTrim(`first trim of a feed (${2 * n + margin} copies, no top yet)`, 2 * n + margin, 60_000_000_000n)));
  progress('  cost: trim 2/3 (steady state)');
  const added = n + margin + TRIM_EXTRA;
  figures.push(
    ...(await measuredTrim(`steady state (head top from the previous trim; ${added} newer copies; N ${n}, margin ${margin})`, added, 30_000_000_000n)),
  );

  // 3. Amortized over the trim attempts writeCopies starts, on STEADY_FEEDS feeds in the steady
  //    state (N copies, the head's top at the newest): this feed, and more seeded that way.
  const envPolicy = stackFeedPolicy(ctx);
  const owners = [owner];
  for (let k = 1; k < STEADY_FEEDS; k++) {
    const other = uid('cost-trim', k);
    const items = track(benchFeed(ctx, other, author, n, t0 - 20_000_000_000n));
    await writeModelItems(ctx, feed, items);
    await recordTrimTop(other, items[0]!.rk as bigint);
    owners.push(other);
  }
  const perFeed = STEADY_COPIES_PER_N * n;
  const attemptLogs: string[] = [];
  const deleted: number[] = [];
  let heldAtEnd = 0;
  // Only the trims' own calls (isTrimTag) are summed: nothing else the handlers do in between counts.
  const amortizedStart = ctx.handlerCapacity.snapshot();
  for (const [k, o] of owners.entries()) {
    progress(`  cost: trim 3/3 (amortized through writeCopies), feed ${k + 1}/${owners.length}`);
    const originals = Array.from({ length: perFeed }, (_, i) => benchOriginal(author, nowTicks(), i)); // oldest first, as posted
    const stretches: (typeof originals)[] = [[]];
    for (const x of originals) {
      stretches.at(-1)!.push(x);
      if (startsTrim(o, x.rk, envPolicy) || stretches.at(-1)!.length >= 500) stretches.push([]);
    }
    const keysBefore = await feedKeys(ctx, o);
    await quiesce(ctx);
    const log: string[] = [];
    let sinceTrim = 0; // copies above the head's top: written since the last trim
    for (const stretch of stretches.filter((s) => s.length)) {
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
    const keysAfter = await feedKeys(ctx, o);
    deleted.push(...deletedSizes([...keysBefore, ...originals.map((x) => x.rk)], keysAfter));
    heldAtEnd += keysAfter.length;
    const newestWritten = originals
      .slice(-n)
      .reverse()
      .map((x) => String(x.rk));
    if (keysAfter.slice(0, n).map(String).join() !== newestWritten.join()) throw new Error('amortized trims did not keep the N newest copies');
    attemptLogs.push(`feed ${k + 1}: ${log.join(', ') || 'none'}`);
  }
  const spent = ctx.handlerCapacity.since(amortizedStart);
  const trimTags = Object.fromEntries(Object.entries(spent.tags).filter(([k]) => isTrimTag(k)));
  const t = sumTags(spent, isTrimTag);
  const count = (tag: string, field: 'calls' | 'scanned' = 'calls') => spent.tags[tag]?.[field] ?? 0;
  const trims = count('trim top');
  const min = minimumOf(deleted);
  figures.push(
    ratioFigure({
      metric: `RCU of trims amortized over ${owners.length} feeds × ${perFeed} copies written through writeCopies (attempts where production starts them)`,
      measured: t.read,
      minimum: min.read,
      target: 2,
      sizes: `${count('head read')} attempts, ${trims} of them trimmed; ${deleted.length} copies deleted; key scans read ${count('trim key scan', 'scanned')} items (${round(count('trim key scan', 'scanned') / Math.max(1, deleted.length), 2)} per deletion); per attempt, copies written since the last trim → items read / deleted: ${attemptLogs.join('; ')}; the feeds hold ${heldAtEnd} copies at the end`,
      sample: { ...spent, tags: trimTags },
    }),
    ratioFigure({
      metric: `WCU of those trims vs their deletes`,
      measured: t.write,
      minimum: min.write,
      target: 1.05,
      sizes: `${deleted.length} deletes + ${trims} top updates`,
    }),
  );
  return {
    wcuPerDeleted: t.write / deleted.length,
    rcuPerDeleted: t.read / deleted.length,
    minWcuPerDeleted: min.write / deleted.length,
    minRcuPerDeleted: min.read / deleted.length,
  };
}
