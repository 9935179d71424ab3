/**
 * A many-authors compose burst: thousands of posts through the API as fast as it takes them, each
 * post's first fan-out page a job of its own. Probes in two phases: PROBES launched evenly while
 * the burst is posted (polled once a second: faster polling would load the store more than the
 * burst does), then DRAIN_PROBES one every DRAIN_PROBE_EVERY_MS once the last burst post is
 * answered, while its backlog drains (each with the fan-out lanes' depth when it was posted, to
 * show the backlog was standing). A probe that never arrives counts at BURST_DRAIN's length. Then
 * every copy, and a sample of whole home feeds holding exactly their followees' posts, each once.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { homeFeedPartition } from '../../functions/model/feed-copy.js';
import { FIRST_FANOUT_PAGE, FOLLOWER_PAGE } from '../../functions/services/follower-pages.js';
import { type Delivery, waitForCopies } from '../copies.js';
import { now, runId, sleep } from '../fixtures.js';
import { pool } from '../stats.js';
import { contentOf, type PlannedPost } from './graph.js';
import { env, type WorkloadRun } from './run.js';
import { queueDepth } from '../../local/queue-depth.js';

const POSTS_IN_FLIGHT = 64;
const PROBES = 24;
const PROBE_POLL_MS = 1000;
const DRAIN_PROBES = 24;
const DRAIN_PROBE_EVERY_MS = env('BENCH_BURST_DRAIN_PROBE_EVERY_MS', 5000);
/** One probe at a time in flight while the backlog drains, so a finer poll costs the store little. */
const DRAIN_PROBE_POLL_MS = 250;
const FANOUT_LANES = ['fanout', 'fanoutTail', 'fanoutBacklog'] as const;
/** The outbox has caught up once the fan-out lanes' depth has not grown over this many samples. */
const CAUGHT_UP_SAMPLES = 4;
const CAUGHT_UP_EVERY_MS = 500;
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
  /** The same, for the probes posted after the burst, while its backlog drained. */
  readonly drainProbeMs: number[];
  readonly drainProbesLost: number;
  /** Fan-out jobs queued or in flight (fanout, fanoutTail, fanoutBacklog) as each drain probe was posted. */
  readonly drainProbeDepths: number[];
  /** Last burst post answered → the outbox had queued the burst's last fan-out job (the drain probes began). */
  readonly outboxLagSeconds: number;
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
  const probes: Promise<Probed>[] = [];
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
  say(`burst posted in ${Math.round((postedAt - start) / 1000)} s; waiting for its copies and ${probes.length} probes, probing the drain…`);
  const drainProbes = probeTheDrain(run, probeAuthors);
  const { doneAt } = await waitForCopies(ctx, deliveries, BURST_DRAIN);
  const probed = await Promise.all(probes);
  const { outboxLagMs, probes: drained } = await drainProbes;
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
    drainProbeMs: drained.map((p) => p.ms),
    drainProbesLost: drained.filter((p) => p.lost).length,
    drainProbeDepths: drained.map((p) => p.depth),
    outboxLagSeconds: outboxLagMs / 1000,
    checkedFeeds: checked,
    wrongFeeds: wrong,
  };
}

interface Probed {
  readonly ms: number;
  /** 201 → the first copy seen: the stream, the outbox and the queue behind it. */
  readonly firstMs: number;
  readonly followers: number;
  readonly lost: boolean;
}

/** A probe of the drain, with the fan-out jobs queued as it was posted. */
type DrainProbed = Probed & { readonly depth: number };

/** Fan-out jobs queued or in flight on each of the three fan-out lanes. */
const laneDepths = (run: WorkloadRun) => Promise.all(FANOUT_LANES.map((lane) => queueDepth(run.ctx, lane)));
/** …and on all three together. */
const fanoutDepth = async (run: WorkloadRun) => (await laneDepths(run)).reduce((a, b) => a + b, 0);

/**
 * Once the outbox has caught up (the fan-out lanes' depth stopped growing: the stream's last burst
 * records are queued), DRAIN_PROBES probes, one every DRAIN_PROBE_EVERY_MS, each with the depth as
 * it was posted. Until then a new post waits in the feed table's stream behind the burst, where no
 * lane can reorder it: that wait is `outboxLagMs`.
 */
async function probeTheDrain(run: WorkloadRun, authors: readonly number[]): Promise<{ outboxLagMs: number; probes: DrainProbed[] }> {
  const from = now();
  let last = await fanoutDepth(run);
  for (let flat = 0; flat < CAUGHT_UP_SAMPLES;) {
    await sleep(CAUGHT_UP_EVERY_MS);
    const depth = await fanoutDepth(run);
    flat = depth > last ? 0 : flat + 1;
    last = depth;
  }
  const outboxLagMs = now() - from - CAUGHT_UP_SAMPLES * CAUGHT_UP_EVERY_MS;
  const probed: Promise<DrainProbed>[] = [];
  for (let i = 0; i < DRAIN_PROBES; i++) {
    if (i > 0) await sleep(DRAIN_PROBE_EVERY_MS);
    const depths = await laneDepths(run);
    const depth = depths.reduce((a, b) => a + b, 0);
    const byLane = FANOUT_LANES.map((lane, l) => `${lane} ${depths[l]}`).join(', ');
    const at = Math.round((now() - from) / 1000);
    probed.push(
      probeOnce(run, authors[(i + 1) % authors.length]!, `drain-${i}`, DRAIN_PROBE_POLL_MS).then((p) => {
        // Which probes are slow, and where their time went: the progress log says, probe by probe.
        run.say(
          `drain probe ${i + 1} (${at} s in, ${p.followers} followers, ${depth} queued: ${byLane}): first copy ${Math.round(p.firstMs)} ms, all ${Math.round(p.ms)} ms`,
        );
        return { ...p, depth };
      }),
    );
  }
  return { outboxLagMs, probes: await Promise.all(probed) };
}

/** A probe post by `author`: ms from its 201 to its last follower's copy. */
async function probeOnce(run: WorkloadRun, author: number, tag: string, pollMs = PROBE_POLL_MS): Promise<Probed> {
  const { ctx, idOf, followerIds } = run;
  const res = await ctx.call('POST', '/activities', idOf(author), { verb: 'post', object: `probe:${runId}-${tag}`, content: `probe ${tag}` });
  const t201 = now();
  if (res.status !== 201) throw new Error(`probe by ${idOf(author)}: ${res.status}`);
  const followers = followerIds(author);
  try {
    const { doneAt, firstAt } = await waitForCopies(ctx, [{ rk: String(res.body.rangeKey), owners: followers }], {
      lanesEmpty: false,
      pollMs,
      timeoutMs: BURST_DRAIN.timeoutMs,
    });
    return { ms: doneAt - t201, firstMs: firstAt - t201, followers: followers.length, lost: false };
  } catch {
    return { ms: BURST_DRAIN.timeoutMs, firstMs: BURST_DRAIN.timeoutMs, followers: followers.length, lost: true };
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
