/**
 * A social workload (docs/workload.md): a seeded power-law graph and posts with @mentions
 * (bench/workload/graph.ts); follows and then posts through the API, end to end, against the
 * minimum item writes at the raw BatchWriteItem rate measured before and after on the same JVM;
 * probes behind 60,000 queued jobs (backlog-probes.ts); and the open-loop mix (mix.ts).
 */
import { homeFeedKey } from '../../functions/model/feed-copy.js';
import type { BenchContext } from '../context.js';
import { type Delivery, waitForCopies } from '../copies.js';
import { now, runId, seedFollows, storedItem, uid } from '../fixtures.js';
import { type Figure, progress, figureOf } from '../report.js';
import { percentile, round } from '../stats.js';
import { backlogProbes } from '../workload/backlog-probes.js';
import { bareFollowSeconds, readOnlyRequestSeconds } from '../workload/follow-floor.js';
import { contentOf, defaultShape, generateWorkload, type PlannedPost, type Workload } from '../workload/graph.js';
import { followMinimumWrites, postMinimumWrites } from '../workload/minimum-writes.js';
import { mixRun } from '../workload/mix.js';
import { probeAuthors } from '../workload/probes.js';
import { DRAIN, env, S, type WorkloadRun } from '../workload/run.js';
import { endToEnd, rawCopyItems, rawFollowItems, timedPhase } from '../workload/timed-phase.js';
import type { Scenario } from './scenario.js';

const fig = figureOf(S);

/** Follows made through the API (the rest of the graph is seeded). */
const API_FOLLOWS = env('BENCH_WORKLOAD_API_FOLLOWS', 2500);
/** Posts made through the API before the mix (after one warm-up post). */
const API_POSTS = env('BENCH_WORKLOAD_API_POSTS', 1000);
const FOLLOWS_IN_FLIGHT = 32;
const POSTS_IN_FLIGHT = 16;
/** Items per raw ceiling run. */
const RAW_ITEMS = 4000;
/** Bare follow transactions timed for the follows' floor (scaled to API_FOLLOWS). */
const FLOOR_FOLLOWS = 1000;
const BACKLOG_PROBES = 20;

let startedAt = 0;
/** A progress line with the seconds since the scenario started. */
const say = (text: string) => progress(`  workload ${Math.round((now() - startedAt) / 1000)} s: ${text}`);

export const workload: Scenario = {
  id: 'workload',
  title: 'a social workload: power-law graph, posts with mentions, backed-up lanes, an open-loop mix',
  async run(ctx) {
    startedAt = now();
    const w = generateWorkload(defaultShape);
    const idOf = (u: number) => uid('w', u);
    const followerIds = (u: number) => w.followersOf[u]!.map(idOf);
    const run: WorkloadRun = { ctx, w, idOf, followerIds, say };
    const ghost = ghostIds();
    const counts = w.followersOf.map((f) => f.length);
    const most = Math.max(...counts);
    const figures: Figure[] = [
      fig(
        `graph: ${defaultShape.users} users, ${w.edges.length} follows (seed ${defaultShape.seed}), ${w.posts.length} planned posts`,
        most,
        'followers (most)',
        {
          note: `${counts.filter((c) => c === most).length} users followed by a third of everyone; median ${percentile(counts, 50)} followers`,
        },
      ),
    ];

    // ---- 1. follows ----
    const apiEdges = w.edges.slice(0, API_FOLLOWS);
    const seeded = w.edges.slice(API_FOLLOWS);
    say(`seeding ${seeded.length} follows with the model's items…`);
    const seededFollows = seeded.map((e) => ({ follower: idOf(e.follower), followee: idOf(e.followee) }));
    await seedFollows(ctx, seededFollows);
    say(`${apiEdges.length} follows through the API (${FOLLOWS_IN_FLIGHT} in flight)…`);
    const follows = await timedPhase(
      run,
      ctx.stack.tableNames.graph,
      () => rawFollowItems(RAW_ITEMS, ghost),
      apiEdges.length,
      FOLLOWS_IN_FLIGHT,
      async (i) => {
        const { follower, followee } = apiEdges[i]!;
        const res = await ctx.call('PUT', `/following/${encodeURIComponent(idOf(followee))}`, idOf(follower));
        if (res.status !== 204) throw new Error(`follow ${follower} → ${followee}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      },
    );
    await checkFollowerCounts(ctx, w, idOf, probeAuthors(counts, 3));
    say(`${FLOOR_FOLLOWS} bare follow transactions (the follows' floor), then ${FLOOR_FOLLOWS} GET /me (the API's floor)…`);
    const scale = apiEdges.length / FLOOR_FOLLOWS;
    const floorSeconds = (await bareFollowSeconds(FLOOR_FOLLOWS, FOLLOWS_IN_FLIGHT, ghost)) * scale;
    const requestFloorSeconds = (await readOnlyRequestSeconds(ctx, FLOOR_FOLLOWS, FOLLOWS_IN_FLIGHT, ghost)) * scale;
    const followWrites = followMinimumWrites(apiEdges);
    const atRaw = followWrites.total / follows.ceiling.rate;
    const floorNote = (seconds: number, what: string) =>
      `${FLOOR_FOLLOWS} ${what}, ${FOLLOWS_IN_FLIGHT} in flight, scaled to ${apiEdges.length}: ${round(seconds, 1)} s against ${round(atRaw, 1)} s at the raw rate`;
    figures.push(
      ...endToEnd({ what: 'follows through the API', unit: 'follows', count: apiEdges.length, writes: followWrites, target: 0.5, ...follows }),
      fig(
        'follows: the floor, one bare follow transaction each (no HTTP, no reads, no jobs): (minimum item writes ÷ raw items/s) ÷ elapsed',
        round(atRaw / floorSeconds),
        '×',
        { note: `${floorNote(floorSeconds, 'transactions between fresh users')} — no follow that commits in one transaction is faster here` },
      ),
      fig(
        'follows: the floor of an API request, GET /me each (the JWT check and two reads, nothing written, no job): (minimum item writes ÷ raw items/s) ÷ elapsed',
        round(atRaw / requestFloorSeconds),
        '×',
        { note: `${floorNote(requestFloorSeconds, 'requests by fresh users')} — no follow through the API, which reads and writes more, is faster here` },
      ),
    );

    // ---- 2. posts ----
    const postOne = async (p: PlannedPost): Promise<Delivery> => {
      const body = { verb: 'post', object: `note:${runId}-w${p.seq}`, content: contentOf(p, idOf) };
      const res = await ctx.call('POST', '/activities', idOf(p.author), body);
      if (res.status !== 201) throw new Error(`post ${p.seq}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      return { rk: String(res.body.rangeKey), owners: [idOf(p.author), ...followerIds(p.author)] };
    };
    // A warm-up post: its stored copy is the shape the raw ceiling writes.
    const warm = await postOne(w.posts[0]!);
    await waitForCopies(ctx, [warm], DRAIN);
    const copy = await storedItem(ctx, ctx.stack.tableNames.feed, homeFeedKey(warm.owners.at(-1)!, BigInt(warm.rk)));
    const timed = w.posts.slice(1, 1 + API_POSTS);
    say(`${timed.length} posts through the API (${POSTS_IN_FLIGHT} in flight)…`);
    const posts = await timedPhase(
      run,
      ctx.stack.tableNames.feed,
      () => rawCopyItems(copy, RAW_ITEMS, ghost),
      timed.length,
      POSTS_IN_FLIGHT,
      (i) => postOne(timed[i]!),
    );
    const following = new Set(w.edges.map((e) => `${e.follower}>${e.followee}`));
    const postWrites = postMinimumWrites(
      timed,
      (u) => counts[u]!,
      (a, b) => following.has(`${a}>${b}`),
    );
    figures.push(...endToEnd({ what: 'posts with fan-out and mentions', unit: 'posts', count: timed.length, writes: postWrites, target: 0.7, ...posts }));

    // ---- 3. probes while the other lanes are backed up; 4. the mix ----
    figures.push(...(await orFailure('backed-up lanes', () => backlogProbes(run, probeAuthors(counts, BACKLOG_PROBES)))));
    figures.push(...(await orFailure('mix', async () => (await mixRun(run, 1 + API_POSTS)).figures)));
    return figures;
  },
};

/** A phase's figures, or a row saying it failed (the figures of the phases before it are kept). */
async function orFailure(phase: string, run: () => Promise<Figure[]>): Promise<Figure[]> {
  try {
    return await run();
  } catch (error) {
    console.error(`\nworkload ${phase} failed:`, error);
    return [fig(`${phase}: failed`, Number.NaN, '', { met: false, note: String((error as Error).message).slice(0, 300) })];
  }
}

/** Fresh user ids nobody follows, as long as the workload's ids (so raw items have the same size). */
function ghostIds(): () => string {
  let n = 0;
  const prefix = uid('', '').slice(0, -1); // `bench-<run>-`
  const width = uid('w', 500).length - prefix.length;
  return () => `${prefix}${(n++).toString(36).padStart(width, '0')}`;
}

/** The follower counts the API reports for `users` are exactly the graph's. */
async function checkFollowerCounts(ctx: BenchContext, w: Workload, idOf: (u: number) => string, users: readonly number[]): Promise<void> {
  for (const u of users) {
    const res = await ctx.call('GET', `/users/${encodeURIComponent(idOf(u))}`, idOf(u));
    if (res.body?.followers !== w.followersOf[u]!.length)
      throw new Error(`${idOf(u)} has ${res.body?.followers} followers, the graph ${w.followersOf[u]!.length}`);
  }
}
