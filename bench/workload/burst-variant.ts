/**
 * One setting of the burst scenario as a process of its own (the handlers read their settings once
 * per process): a fresh stack with the variant's settings, the workload's graph seeded (`warm`:
 * every reader's bound a window on, as a finished stamp leaves it), the burst with probes
 * (burst.ts), then the mix (mix.ts). Prints one JSON line.
 */
import { nowTicks } from '../../functions/platform/clock.js';
import { generateLocalKeys } from '../../local/jwt.js';
import { startLocalStack } from '../../local/stack.js';
import { createContext } from '../context.js';
import { readPlan } from '../driver.js';
import { now, seedFollows, setHeadBound, uid } from '../fixtures.js';
import { progress } from '../report.js';
import { benchStackEnv } from '../stack-env.js';
import { pool } from '../stats.js';
import { composeBurst, type BurstResult } from './burst.js';
import { defaultShape, generateWorkload } from './graph.js';
import { type MixSummary, mixRun } from './mix.js';
import { probeAuthors } from './probes.js';
import type { WorkloadRun } from './run.js';

export interface VariantPlan {
  readonly name: string;
  /** Settings on top of the bench's (every one the variants differ in, named by each). */
  readonly env: Readonly<Record<string, string>>;
  readonly warm: boolean;
  readonly burstPosts: number;
  readonly probeAuthors: number;
  /** The mix's requests per second. */
  readonly mixRate: number;
}

export interface VariantResult {
  readonly name: string;
  readonly burst: BurstResult;
  readonly mix: MixSummary;
}

const plan = await readPlan<VariantPlan>();
const started = now();
const say = (text: string) => progress(`  burst [${plan.name}] ${Math.round((now() - started) / 1000)} s: ${text}`);
const keys = await generateLocalKeys();
const stack = await startLocalStack({ port: 0, keys, sqsRetryDelaySeconds: 1, env: { ...benchStackEnv, ...plan.env } });
const ctx = await createContext(stack, keys);
try {
  // Enough planned posts for the burst and the mix after it (150/s × 10 % posts × its seconds).
  const w = generateWorkload({ ...defaultShape, postsPerUser: Math.ceil((plan.burstPosts + 2000) / defaultShape.users) });
  const idOf = (u: number) => uid('w', u);
  const run: WorkloadRun = { ctx, w, idOf, followerIds: (u) => w.followersOf[u]!.map(idOf), say };
  say(`seeding ${w.edges.length} follows${plan.warm ? ', every reader stamped' : ''}…`);
  const until = plan.warm ? nowTicks() + 30n * 86_400_000_000_000n : undefined;
  await seedFollows(
    ctx,
    w.edges.map((e) => ({ follower: idOf(e.follower), followee: idOf(e.followee), activeUntil: until })),
  );
  if (until !== undefined) await pool(w.shape.users, 16, (u) => setHeadBound(ctx, idOf(u), until).then(() => undefined));
  const authors = probeAuthors(
    w.followersOf.map((f) => f.length),
    plan.probeAuthors,
  );
  say(`${plan.burstPosts} posts by ${new Set(w.posts.slice(0, plan.burstPosts).map((p) => p.author)).size} authors, probes alongside…`);
  const burst = await composeBurst(run, w.posts.slice(0, plan.burstPosts), authors);
  // The 60/30/10 mix alone: the workload scenario's follow burst saturates this machine by itself.
  const { summary } = await mixRun(run, plan.burstPosts, { rate: plan.mixRate, followBurst: false });
  const result: VariantResult = { name: plan.name, burst, mix: summary };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  ctx.close();
  await stack.stop();
}
