/**
 * Follows: a hot user (follows of one user vs as many spread over many users, through the API,
 * alternating); and a bulk import (POST /batch/follows of a power-law graph in batches of 1,000)
 * as (minimum item writes ÷ raw BatchWriteItem items/s of the same sizes) ÷ elapsed. Counts are
 * checked exact.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import { ADMIN_SCOPE } from '../../lib/defs/scopes.js';
import { followerShardKey } from '../../functions/model/profile.js';
import { nowTicks } from '../../functions/platform/clock.js';
import { mintToken } from '../../local/jwt.js';
import { type BenchContext, timedFetch } from '../context.js';
import { followAll, followItems, now, quiesce, rawRate, uid } from '../fixtures.js';
import { atLeast, type Figure, progress, figureOf } from '../report.js';
import { median, pool, round } from '../stats.js';
import { seededRandom } from '../workload/random.js';
import type { Scenario } from './scenario.js';

const S = 'follows';
const fig = figureOf(S);
const HOT_FOLLOWS = 400;
const HOT_REPS = 3;

const POPULATION = 1000;
const IMPORT_FOLLOWERS = 200;
const FOLLOWS_EACH = 50;
const BATCH = 1000;
const IMPORT_IN_FLIGHT = 4;
const IMPORT_REPS = 3;

const followerCount = async (ctx: BenchContext, user: string): Promise<number> =>
  (await ctx.call('GET', `/users/${encodeURIComponent(user)}`, user)).body.followers;

async function hotUser(ctx: BenchContext): Promise<Figure[]> {
  const hot: number[] = [];
  const spread: number[] = [];
  for (let rep = 0; rep < HOT_REPS; rep++) {
    for (const kind of rep % 2 ? ['spread', 'hot'] : ['hot', 'spread']) {
      progress(`  follows: ${kind} run ${rep + 1}/${HOT_REPS}`);
      await quiesce(ctx, 300);
      const star = uid(`star${rep}`);
      const follows = Array.from({ length: HOT_FOLLOWS }, (_, i) => ({
        follower: uid(`${kind}${rep}-fan`, i),
        followee: kind === 'hot' ? star : uid(`${kind}${rep}-idol`, i),
      }));
      (kind === 'hot' ? hot : spread).push(await followAll(ctx, follows));
      if (kind === 'hot' && (await followerCount(ctx, star)) !== HOT_FOLLOWS)
        throw new Error(`the hot user counts ${await followerCount(ctx, star)}, not ${HOT_FOLLOWS}`);
    }
  }
  const ratio = median(hot) / median(spread);
  return [
    fig(`follows of one user (${HOT_FOLLOWS}, 16 in flight, p50 of ${HOT_REPS})`, Math.round(median(hot)), 'follows/s'),
    fig(`follows spread over ${HOT_FOLLOWS} users (p50 of ${HOT_REPS})`, Math.round(median(spread)), 'follows/s'),
    fig('hot user: follows of one user / spread', round(ratio), '×', {
      ...atLeast(ratio, 0.8),
      note: `runs ${hot.map(Math.round).join(', ')} vs ${spread.map(Math.round).join(', ')} follows/s; the hot user's count exact after each run`,
    }),
  ];
}

interface ImportGraph {
  readonly batches: { follower: string; followee: string }[][];
  readonly followees: string[];
  /** Follower counts each followee must end with. */
  readonly expected: Map<string, number>;
  /** The minimum item writes: 3 per follow, and per batch one per user it touches. */
  readonly minimumItems: number;
}

function importGraph(rep: number): ImportGraph {
  const random = seededRandom(19 + rep); // the same graph every run
  const population = Array.from({ length: POPULATION }, (_, i) => uid(`imp${rep}-u`, i));
  const edges: { follower: string; followee: string }[] = [];
  for (let f = 0; f < IMPORT_FOLLOWERS; f++) {
    const follower = uid(`imp${rep}-fan`, f);
    const chosen = new Set<number>();
    // u³ is skewed toward 0: the first few users are followed by most, the tail by a few.
    while (chosen.size < FOLLOWS_EACH) chosen.add(Math.floor(POPULATION * random.next() ** 3));
    for (const i of [...chosen].sort((a, b) => a - b)) edges.push({ follower, followee: population[i]! });
  }
  const batches: { follower: string; followee: string }[][] = [];
  for (let i = 0; i < edges.length; i += BATCH) batches.push(edges.slice(i, i + BATCH));
  const expected = new Map<string, number>();
  for (const e of edges) expected.set(e.followee, (expected.get(e.followee) ?? 0) + 1);
  const touched = batches.reduce((sum, b) => sum + new Set(b.flatMap((e) => [`r${e.follower}`, `e${e.followee}`])).size, 0);
  const followees = [...expected.entries()].sort((a, b) => b[1] - a[1]).map(([f]) => f);
  return { batches, followees, expected, minimumItems: 3 * edges.length + touched };
}

/** Items of the same sizes as the import's, for raw ids of the same length. */
function rawItemsLike(graph: ImportGraph, tag: string) {
  const ticks = nowTicks();
  const raw = (id: string) => `${tag}${id.slice(tag.length)}`;
  const items: Record<string, unknown>[] = [];
  for (const batch of graph.batches) {
    const touched = new Set<string>();
    for (const { follower, followee } of batch) {
      items.push(...followItems(raw(follower), raw(followee), ticks));
      touched.add(follower).add(followee);
    }
    for (const u of touched) items.push({ ...followerShardKey(raw(u), 7), followers: 3 });
  }
  return items.map((i) => marshall(i));
}

async function bulkImport(ctx: BenchContext): Promise<Figure[]> {
  const admin = await mintToken(ctx.keys, uid('importer'), { scope: ADMIN_SCOPE, expiresIn: '2h' });
  const ours: number[] = [];
  const raws: number[] = [];
  const spentWrites: number[] = [];
  let minimum = 0;
  let follows = 0;
  const importAll = async (graph: ImportGraph): Promise<number> => {
    await quiesce(ctx, 300);
    const before = ctx.handlerCapacity.snapshot();
    const t0 = now();
    await pool(graph.batches.length, IMPORT_IN_FLIGHT, async (b) => {
      const res = await timedFetch<{ created?: number }>(`${ctx.stack.apiUrl}/batch/follows`, 'POST', admin, { follows: graph.batches[b] });
      if (res.status !== 200 || res.body?.created !== graph.batches[b]!.length)
        throw new Error(`POST /batch/follows: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    });
    const elapsed = (now() - t0) / 1000;
    spentWrites.push(ctx.handlerCapacity.since(before).write);
    // Counts exact (the 20 most followed followees).
    for (const f of graph.followees.slice(0, 20)) {
      const got = await followerCount(ctx, f);
      if (got !== graph.expected.get(f)) throw new Error(`${f}: ${got} followers after the import, not ${graph.expected.get(f)}`);
    }
    return elapsed;
  };
  const rawBest = async (graph: ImportGraph): Promise<number> => {
    const rates: number[] = [];
    for (const concurrency of [8, 16]) {
      await quiesce(ctx, 300);
      rates.push(await rawRate(ctx, ctx.stack.tableNames.graph, rawItemsLike(graph, `raw${concurrency}-`), concurrency));
    }
    return Math.max(...rates);
  };
  // One unmeasured round first: the JVM's first minutes of this work run slower (JIT), for both sides.
  progress('  follows: import warm-up');
  const warm = importGraph(99);
  await importAll(warm);
  await rawBest(warm);
  spentWrites.length = 0;
  for (let rep = 0; rep < IMPORT_REPS; rep++) {
    const graph = importGraph(rep);
    minimum = graph.minimumItems;
    follows = graph.batches.reduce((s, b) => s + b.length, 0);
    progress(`  follows: import run ${rep + 1}/${IMPORT_REPS} (${follows} follows in ${graph.batches.length} batches)`);
    // Alternating which side goes first, so a drift in the machine's speed hits both alike.
    let raw = 0;
    if (rep % 2) raw = await rawBest(graph);
    const elapsed = await importAll(graph);
    if (!(rep % 2)) raw = await rawBest(graph);
    raws.push(raw);
    ours.push(graph.minimumItems / raw / elapsed);
  }
  const ratio = median(ours);
  return [
    fig(
      `bulk import: ${follows} follows (${IMPORT_FOLLOWERS} followers × ${FOLLOWS_EACH}, power law over ${POPULATION}) in batches of ${BATCH}, ${IMPORT_IN_FLIGHT} in flight`,
      Math.round((follows * median(ours) * median(raws)) / minimum),
      'follows/s',
      {
        note: `minimum ${minimum} item writes (3 per follow + one counter per user per batch); write units the meter saw ${spentWrites.map(Math.round).join(', ')} (no transaction reported capacity here: the counter changes, 2 units each by the pricing rules, are not in it)`,
      },
    ),
    fig('raw BatchWriteItem items/s, same item sizes (faster of 8 and 16 in flight, p50)', Math.round(median(raws)), 'items/s'),
    fig('bulk import: (minimum item writes ÷ raw items/s) ÷ elapsed', round(ratio), '×', {
      ...atLeast(ratio, 0.8),
      note: `runs ${ours.map((r) => round(r)).join(', ')}; every followee's count checked exact (the 20 most followed)`,
    }),
  ];
}

export const follows: Scenario = {
  id: 'follows',
  title: 'follows of one user vs spread over many; bulk import vs raw BatchWriteItem',
  run: async (ctx) => [...(await hotUser(ctx)), ...(await bulkImport(ctx))],
};
