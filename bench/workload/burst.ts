/**
 * A many-authors compose burst: thousands of posts through the API as fast as it takes them, each
 * post's first fan-out page a job of its own, with PROBES probe posts launched evenly meanwhile
 * (polled once a second: faster polling would load the store more than the burst does; a probe
 * that never arrives counts at BURST_DRAIN's length). Then every copy, and a sample of whole home
 * feeds holding exactly their followees' posts, each once.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { FIRST_FANOUT_PAGE, FOLLOWER_PAGE } from '../../functions/services/follower-pages.js';
import { type Delivery, waitForCopies } from '../copies.js';
import { now, runId } from '../fixtures.js';
import { pool } from '../stats.js';
import { contentOf, type PlannedPost } from './graph.js';
import type { WorkloadRun } from './run.js';

const POSTS_IN_FLIGHT = 64;
const PROBES = 24;
const PROBE_POLL_MS = 1000;
/** How long the burst's copies and probes may take: behind a strict queue order, many minutes. */
const BURST_DRAIN = { pollMs: 200, timeoutMs: 1_800_000 };
/** Home feeds whose whole content is checked after the drain. */
const EXACT_SAMPLE = 40;

export interface BurstResult {
  readonly posts: number;
  /** Fan-out jobs the burst queued: each post's first page, plus further pages of 100 followers on. */
  readonly fanoutJobs: number;
  readonly copies: number;
  /** First post sent → every copy of every post written. */
  readonly drainSeconds: number;
  /** First post sent → last post answered. */
  readonly postedSeconds: number;
  /** ms from each probe's 201 to its last follower's copy (BURST_DRAIN's length if it never came). */
  readonly probeMs: number[];
  readonly probesLost: number;
  readonly probeFollowers: number[];
  /** Home feeds checked whole, and those holding a post twice, missing one, or one nobody they follow wrote. */
  readonly checkedFeeds: number;
  readonly wrongFeeds: number;
}

/** A post's fan-out jobs: its first page, then the further pages (services/follower-pages.ts). */
const fanoutJobsOf = (followers: number) => 1 + Math.max(0, Math.ceil((followers - FIRST_FANOUT_PAGE) / FOLLOWER_PAGE));

export async function composeBurst(run: WorkloadRun, posts: readonly PlannedPost[], probeAuthors: readonly number[]): Promise<BurstResult> {
  const { ctx, w, idOf, followerIds, say } = run;
  const deliveries: Delivery[] = [];
  const start = now();
  let posted = 0;
  const probes: Promise<{ ms: number; followers: number; lost: boolean }>[] = [];
  const every = Math.max(1, Math.floor(posts.length / PROBES));
  await pool(posts.length, POSTS_IN_FLIGHT, async (i) => {
    // A probe after every `every` posts (the first once a backlog has begun), PROBES in all.
    if (i % every === every - 1 && probes.length < PROBES)
      probes.push(probeOnce(run, probeAuthors[probes.length % probeAuthors.length]!, `burst-${probes.length}`));
    const p = posts[i]!;
    const res = await ctx.call('POST', '/activities', idOf(p.author), { verb: 'post', object: `note:${runId}-b${p.seq}`, content: contentOf(p, idOf) });
    if (res.status !== 201) throw new Error(`burst post ${p.seq}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    deliveries[i] = { rk: String(res.body.rangeKey), owners: [idOf(p.author), ...followerIds(p.author)] };
    if (++posted % 1000 === 0) say(`burst: ${posted}/${posts.length} posted`);
  });
  const postedAt = now();
  say(`burst posted in ${Math.round((postedAt - start) / 1000)} s; waiting for its copies and ${probes.length} probes…`);
  const { doneAt } = await waitForCopies(ctx, deliveries, BURST_DRAIN);
  const probed = await Promise.all(probes);
  const { checked, wrong } = await exactFeeds(run, deliveries);
  return {
    posts: posts.length,
    fanoutJobs: posts.reduce((n, p) => n + fanoutJobsOf(w.followersOf[p.author]!.length), 0),
    copies: deliveries.reduce((n, d) => n + d.owners.length, 0),
    drainSeconds: (doneAt - start) / 1000,
    postedSeconds: (postedAt - start) / 1000,
    probeMs: probed.map((p) => p.ms),
    probesLost: probed.filter((p) => p.lost).length,
    probeFollowers: probed.map((p) => p.followers),
    checkedFeeds: checked,
    wrongFeeds: wrong,
  };
}

/** A probe post by `author`: ms from its 201 to its last follower's copy. */
async function probeOnce(run: WorkloadRun, author: number, tag: string): Promise<{ ms: number; followers: number; lost: boolean }> {
  const { ctx, idOf, followerIds } = run;
  const res = await ctx.call('POST', '/activities', idOf(author), { verb: 'post', object: `probe:${runId}-${tag}`, content: `probe ${tag}` });
  const t201 = now();
  if (res.status !== 201) throw new Error(`probe by ${idOf(author)}: ${res.status}`);
  const followers = followerIds(author);
  try {
    const { doneAt } = await waitForCopies(ctx, [{ rk: String(res.body.rangeKey), owners: followers }], {
      lanesEmpty: false,
      pollMs: PROBE_POLL_MS,
      timeoutMs: BURST_DRAIN.timeoutMs,
    });
    return { ms: doneAt - t201, followers: followers.length, lost: false };
  } catch {
    return { ms: BURST_DRAIN.timeoutMs, followers: followers.length, lost: true };
  }
}

/**
 * EXACT_SAMPLE followers' whole home feeds against what the burst owes them: each followee's burst
 * posts (and their own), once each, nothing else but probes.
 */
async function exactFeeds(run: WorkloadRun, deliveries: readonly Delivery[]): Promise<{ checked: number; wrong: number }> {
  const { ctx, w, idOf } = run;
  const owed = new Map<string, Set<string>>();
  deliveries.forEach((d) => d.owners.forEach((o) => (owed.get(o) ?? owed.set(o, new Set()).get(o)!).add(d.rk)));
  const sample = Array.from({ length: EXACT_SAMPLE }, (_, i) => idOf(Math.floor((i * w.shape.users) / EXACT_SAMPLE)));
  let wrong = 0;
  for (const owner of sample) {
    const rks: string[] = [];
    let from: Record<string, unknown> | undefined;
    do {
      const out = await ctx.doc.send(
        new QueryCommand({
          TableName: ctx.stack.tableNames.feed,
          KeyConditionExpression: 'pk = :pk AND rk > :head',
          ExpressionAttributeValues: { ':pk': homeFeedPartition(owner), ':head': 0 },
          ProjectionExpression: 'rk, #o',
          ExpressionAttributeNames: { '#o': 'object' },
          ExclusiveStartKey: from,
        }),
      );
      for (const item of out.Items ?? []) if (!String(item.object).startsWith('probe:')) rks.push(String(item.rk));
      from = out.LastEvaluatedKey;
    } while (from);
    const want = owed.get(owner) ?? new Set<string>();
    if (rks.length !== want.size || new Set(rks).size !== rks.length || rks.some((rk) => !want.has(rk))) wrong += 1;
  }
  return { checked: sample.length, wrong };
}
