/**
 * Activity-aware fan-out (docs/lanes.md#who-gets-a-copy): write units per post at 10, 30, 60 % of
 * followers reading beside 100 % (what copy-everyone writes), the copies against their minimum and
 * a stamp's cost amortized; a returning reader's first page (calls, latency, items, time until
 * their copies are back); freshness of probe posts under a burst of large fan-outs, beside the
 * same probes with no burst and the event loop's delay.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { feedHeadKey, parseFeedHead } from '../../functions/model/feed-head.js';
import { homeFeedKey } from '../../functions/model/feed-copy.js';
import { nowTicks } from '../../functions/platform/clock.js';
import { FIRST_FANOUT_PAGE, FOLLOWER_PAGE } from '../../functions/services/follower-pages.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { queueDepth } from '../../local/queue-depth.js';
import { callCount, sumTags } from '../capacity.js';
import type { BenchContext } from '../context.js';
import { missingCopies, waitForCopies } from '../copies.js';
import { dollars, itemSize, writeUnits } from '../dynamo-cost.js';
import { benchActivity, now, postActivity, quiesce, seedFollows, setHeadBound, sleep, storedItem, uid } from '../fixtures.js';
import { atMost, type Figure, progress, figureOf } from '../report.js';
import { median, percentile, pool, round } from '../stats.js';
import type { Scenario } from './scenario.js';

const S = 'activity-aware fan-out';
const fig = figureOf(S);
const FOLLOWERS = 200;
const POSTS = 5;
const SHARES = [0.1, 0.3, 0.6, 1] as const;
const STAMP_FOLLOWS = 50;
/** Workload for amortizing stamps: posts per user per day, and each reader follows as many as an author has followers. */
const POSTS_PER_USER_PER_DAY = 1;
const WINDOW_DAYS = 30;
const RETURNING = 12;
const RETURN_AUTHORS = 8;
const BURST_AUTHORS = 2;
const BURST_FOLLOWERS = 5000;
const BURST_POSTS = 1000;
const BURST_READING = 0.01;
const PROBE_READERS = 3;

const DAY_NS = 86_400_000_000_000n;
const ahead = () => nowTicks() + BigInt(WINDOW_DAYS) * DAY_NS;
const passed = () => nowTicks() - DAY_NS;

/** `followers` follow `author` (seeded), each entry's bound ahead when `reading(i)`, else passed (a reader who left). */
function seedWithBounds(ctx: BenchContext, author: string, followers: readonly string[], reading: (i: number) => boolean) {
  const follows = followers.map((follower, i) => ({ follower, followee: author, activeUntil: reading(i) ? ahead() : passed() }));
  return seedFollows(ctx, follows, 4);
}

const headBound = async (ctx: BenchContext, reader: string) =>
  parseFeedHead((await ctx.doc.send(new GetCommand({ TableName: ctx.stack.tableNames.feed, Key: feedHeadKey(reader), ConsistentRead: true }))).Item)
    .activeUntil;

const mustPost = (ctx: BenchContext, author: string, i: number) => postActivity(ctx, author, benchActivity(i));

/** Write units per post when `share` of an author's followers read, and the copies' units against their minimum. */
async function costAt(ctx: BenchContext, share: number) {
  const author = uid(`act${Math.round(share * 100)}`);
  const followers = Array.from({ length: FOLLOWERS }, (_, i) => uid(`act${Math.round(share * 100)}-f`, i));
  const readingCount = Math.round(share * FOLLOWERS);
  await seedWithBounds(ctx, author, followers, (i) => i < readingCount);
  const reading = followers.slice(0, readingCount);
  await quiesce(ctx, 300);
  const before = ctx.handlerCapacity.snapshot();
  const rks: string[] = [];
  for (let i = 0; i < POSTS; i++) {
    rks.push((await mustPost(ctx, author, i)).rangeKey);
    await waitForCopies(ctx, [{ rk: rks.at(-1)!, owners: [author, ...reading] }]);
  }
  const spent = ctx.handlerCapacity.since(before);
  const notReading = followers.slice(readingCount);
  for (const rk of rks) if ((await missingCopies(ctx, notReading, rk)).length !== notReading.length) throw new Error('a follower not reading got a copy');
  const copyTags = sumTags(spent, (t) => t === 'copy writes');
  // The minimum for what was copied: each copy (own copy included) at its item size.
  const ownCopy = await storedItem(ctx, ctx.stack.tableNames.feed, homeFeedKey(author, BigInt(rks[0]!)));
  const copies = (readingCount + 1) * POSTS;
  return { share, wcuPerPost: spent.write / POSTS, copies, copyWcu: copyTags.write, copyMin: copies * writeUnits(itemSize(ownCopy)) };
}

/** One stamp: a reader of STAMP_FOLLOWS follows reads for the first time; the stamp job's write units. */
async function stampCost(ctx: BenchContext): Promise<number> {
  const reader = uid('stamper');
  const authors = Array.from({ length: STAMP_FOLLOWS }, (_, i) => uid('stamped', i));
  const follows = authors.map((followee) => ({ follower: reader, followee }));
  await seedFollows(ctx, follows, 4);
  await quiesce(ctx, 300);
  const before = ctx.handlerCapacity.snapshot();
  if ((await ctx.call('GET', '/feed', reader)).status !== 200) throw new Error('GET /feed');
  await quiesce(ctx, 300);
  if ((await headBound(ctx, reader)) === undefined) throw new Error('the stamp did not run');
  return ctx.handlerCapacity.since(before).write;
}

async function returningReaders(ctx: BenchContext): Promise<Figure[]> {
  const authors = Array.from({ length: RETURN_AUTHORS }, (_, i) => uid('ret-author', i));
  const readers = Array.from({ length: RETURNING }, (_, i) => uid('ret-reader', i));
  const stayed = uid('ret-stayed');
  for (const a of authors) await seedWithBounds(ctx, a, [...readers, stayed], (i) => i === readers.length);
  for (const r of readers) await setHeadBound(ctx, r, passed());
  for (const [i, a] of authors.entries()) for (let p = 0; p < 3; p++) await mustPost(ctx, a, i * 10 + p);
  await quiesce(ctx, 300);
  const reference = (await ctx.call('GET', '/feed?limit=20', stayed)).body.items.map((x: { id: string }) => x.id).join();
  const ms: number[] = [];
  const calls: number[] = [];
  const back: number[] = [];
  let complete = 0;
  for (const r of readers) {
    await quiesce(ctx, 200);
    const t0 = now();
    const { value: res, spent } = await ctx.handlerCapacity.measure(() => ctx.call('GET', '/feed?limit=20', r));
    ms.push(res.ms);
    calls.push(callCount(spent));
    if (res.body.items.map((x: { id: string }) => x.id).join() === reference) complete++;
    while (((await headBound(ctx, r)) ?? 0n) < nowTicks()) await sleep(20);
    back.push(now() - t0);
  }
  // The issue's bound: the home feed's Query and one per followee with posts in the window.
  const queries = 1 + RETURN_AUTHORS;
  return [
    fig(
      `returning reader's first page: same items as a reader who never left (${RETURNING} readers, ${RETURN_AUTHORS} followees × 3 posts)`,
      complete,
      `of ${RETURNING}`,
      { target: `${RETURNING}`, met: complete === RETURNING },
    ),
    fig("returning reader's first page: DynamoDB calls (p50)", median(calls), 'calls', {
      ...atMost(median(calls), queries),
      note: `home feed + the reader's follows (one Query of their edges) and followed tags (one Query, none here) + one Query per followee (${RETURN_AUTHORS}); the target is the issue's 1 + followees: the two Queries of the reader's follows are over it`,
    }),
    fig("returning reader's first page p50 / p99", round(median(ms)), 'ms', {
      note: `p99 ${round(percentile(ms, 99))} ms; a page of a reader who never left is one Query`,
    }),
    fig('returning reader: read → copies written back (stamp job done, p50)', round(median(back)), 'ms', {
      note: `p99 ${round(percentile(back, 99))} ms (followup lane)`,
    }),
  ];
}

/** Per probe: POST → shown in every reader's first page, and 201 → every reader's copy stored (read from the table). */
type ProbeTimes = { readonly shown: number; readonly stored: number };

async function probeOnce(ctx: BenchContext, probe: string, readers: readonly string[], i: number): Promise<ProbeTimes> {
  const t0 = now();
  const { id, rangeKey } = await mustPost(ctx, probe, i);
  const posted = now();
  const storedAll = Promise.all(
    readers.map(async (r) => {
      const key = homeFeedKey(r, BigInt(rangeKey));
      while (!(await ctx.doc.send(new GetCommand({ TableName: ctx.stack.tableNames.feed, Key: key, ConsistentRead: true }))).Item) await sleep(50);
    }),
  ).then(() => now() - posted);
  await Promise.all(
    readers.map(async (r) => {
      while (!(await ctx.call('GET', '/feed?limit=5', r)).body.items.some((x: { id: string }) => x.id === id)) await sleep(50);
    }),
  );
  const shown = now() - t0;
  return { shown, stored: await storedAll };
}

const p99Of = (xs: readonly number[]) => round(percentile(xs, 99));

async function burstFreshness(ctx: BenchContext): Promise<Figure[]> {
  const authors = Array.from({ length: BURST_AUTHORS }, (_, i) => uid('burst', i));
  progress(`  activity: seeding ${BURST_AUTHORS} × ${BURST_FOLLOWERS} followers (${BURST_READING * 100} % reading)`);
  for (const a of authors) {
    const followers = Array.from({ length: BURST_FOLLOWERS }, (_, i) => uid(`burst-f${a.slice(-1)}`, i));
    await seedWithBounds(ctx, a, followers, (i) => i < BURST_FOLLOWERS * BURST_READING);
  }
  const probe = uid('probe-author');
  const probeReaders = Array.from({ length: PROBE_READERS }, (_, i) => uid('probe-reader', i));
  await seedWithBounds(ctx, probe, probeReaders, () => true);
  await quiesce(ctx, 300);
  // The floor: the same probes with nothing else running.
  const idle: ProbeTimes[] = [];
  for (let p = 0; p < 10; p++) idle.push(await probeOnce(ctx, probe, probeReaders, 4000 + p));
  let posting = true;
  let peak = 0;
  let peakFirst = 0;
  const sampler = (async () => {
    while (posting) {
      const first = await queueDepth(ctx, 'fanout');
      peakFirst = Math.max(peakFirst, first);
      peak = Math.max(peak, first + (await queueDepth(ctx, 'fanoutTail')));
      await sleep(250);
    }
  })();
  // The local stack's handlers, pollers and queue server share this process's one event loop (in
  // AWS each invocation has its own): how long its callbacks waited during the burst.
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  const burst = pool(BURST_POSTS, 16, async (i) => {
    await mustPost(ctx, authors[i % BURST_AUTHORS]!, i);
  });
  const probes: ProbeTimes[] = [];
  const probing = (async () => {
    for (let p = 0; p < 30; p++) {
      await sleep(300);
      probes.push(await probeOnce(ctx, probe, probeReaders, 5000 + p));
    }
  })();
  await Promise.all([burst, probing]);
  loopDelay.disable();
  const tailAtEnd = await queueDepth(ctx, 'fanoutTail');
  await quiesce(ctx, 500, 600_000);
  posting = false;
  await sampler;
  // A post's first fan-out page is a job of its own, then one job per later page (services/follower-pages.ts).
  const messages = BURST_POSTS * (1 + Math.ceil((BURST_FOLLOWERS - FIRST_FANOUT_PAGE) / FOLLOWER_PAGE));
  const fresh = probes.map((x) => x.shown);
  const slowest = [...probes].sort((a, b) => b.shown - a.shown).slice(0, 3);
  return [
    fig(`burst: fan-out messages queued by ${BURST_POSTS} posts of authors with ${BURST_FOLLOWERS} followers`, messages, 'messages', {
      note: `peak queued at once ${peak} (fanout + fanoutTail, sampled every 250 ms), of which first pages (the fanout lane, where a probe's own job waits) at most ${peakFirst}; ${tailAtEnd} still on fanoutTail when the probes ended`,
    }),
    fig("burst: a probe post → in each of its readers' first page, p50", round(median(fresh)), 'ms', {
      note: `${fresh.length} probes, ${PROBE_READERS} readers each, polled every 50 ms`,
    }),
    fig("burst: a probe post → in each of its readers' first page, p99", p99Of(fresh), 'ms', { ...atMost(percentile(fresh, 99), 5000, 'ms') }),
    fig('burst: a probe post 201 → every reader’s copy stored (read from the table), p99', p99Of(probes.map((x) => x.stored)), 'ms', {
      note: `p50 ${round(median(probes.map((x) => x.stored)))} ms; the 3 slowest probes (POST → shown / 201 → stored): ${slowest.map((x) => `${round(x.shown)}/${round(x.stored)} ms`).join(', ')}`,
    }),
    fig('floor: the same probe with no burst, POST → shown p99', p99Of(idle.map((x) => x.shown)), 'ms', {
      note: `${idle.length} probes; p50 ${round(median(idle.map((x) => x.shown)))} ms; 201 → stored p99 ${p99Of(idle.map((x) => x.stored))} ms`,
    }),
    fig(
      'burst: the local stack’s event-loop delay (one Node process runs every handler, poller and the queue server), p99',
      round(loopDelay.percentile(99) / 1e6),
      'ms',
      { note: `max ${round(loopDelay.max / 1e6)} ms, mean ${round(loopDelay.mean / 1e6)} ms (sampled every 20 ms while the burst and the probes ran)` },
    ),
  ];
}

export const activity: Scenario = {
  id: 'activity',
  title: 'copies for readers only: cost at 10/30/60 % reading, a returning reader’s first page, freshness under a burst',
  async run(ctx) {
    const costs: Awaited<ReturnType<typeof costAt>>[] = [];
    for (const share of SHARES) {
      progress(`  activity: ${share * 100} % reading`);
      costs.push(await costAt(ctx, share));
    }
    const everyone = costs.find((c) => c.share === 1)!;
    const stamp = await stampCost(ctx);
    // Each reader is stamped once per half window; each follows FOLLOWERS authors; each user posts POSTS_PER_USER_PER_DAY.
    const postsPerHalfWindow = POSTS_PER_USER_PER_DAY * (WINDOW_DAYS / 2);
    const stampPerFollow = stamp / STAMP_FOLLOWS;
    const figures: Figure[] = [
      fig(`a stamp: write units for a reader of ${STAMP_FOLLOWS} follows`, round(stamp), 'WCU', {
        note: `${round(stampPerFollow, 3)} per follow: one UpdateItem per follow and the head's transaction`,
      }),
    ];
    for (const c of costs.filter((x) => x.share < 1)) {
      const bookkeeping = (c.share * stampPerFollow * FOLLOWERS) / postsPerHalfWindow;
      const total = c.wcuPerPost + bookkeeping;
      const ratio = total / everyone.wcuPerPost;
      figures.push(
        fig(`${c.share * 100} % reading: write units per post (bookkeeping included) / copy-everyone`, round(ratio, 3), '×', {
          ...(c.share === 0.3 ? atMost(ratio, 0.5) : {}),
          note: `${round(c.wcuPerPost)} WCU per post + ${round(bookkeeping, 2)} bookkeeping vs ${round(everyone.wcuPerPost)} at 100 % (${FOLLOWERS} followers); $${round(dollars(1e6, total, 0))} vs $${round(dollars(1e6, everyone.wcuPerPost, 0))} per million posts; bookkeeping: each reader stamped once per ${WINDOW_DAYS / 2} days, ${POSTS_PER_USER_PER_DAY} post per user per day`,
        }),
        fig(`${c.share * 100} % reading: copy write units / pricing minimum for the copies written`, round(c.copyWcu / c.copyMin, 3), '×', {
          ...atMost(c.copyWcu / c.copyMin, 1.05),
          note: `${c.copies} copies (own copies included)`,
        }),
      );
    }
    figures.push(...(await returningReaders(ctx)), ...(await burstFreshness(ctx)));
    return figures;
  },
};
