/**
 * One setting of the burst scenario as a process of its own (the handlers read their settings once
 * per process), kept running as a session (bench/driver.ts) so the settings can take turns: the
 * plan starts a fresh stack with the variant's settings and seeds the workload's graph (`warm`:
 * every reader's bound a window on, as a finished stamp leaves it); then each request runs the
 * burst with probes (burst.ts) or one round of the mix (mix.ts), and answers with its figures.
 */
import { nowTicks } from '../../functions/platform/clock.js';
import { generateLocalKeys } from '../../local/jwt.js';
import { startLocalStack } from '../../local/stack.js';
import { createContext } from '../context.js';
import { answer, sessionRequests } from '../driver.js';
import { now, seedFollows, setHeadBound, uid } from '../fixtures.js';
import { progress } from '../report.js';
import { benchStackEnv } from '../stack-env.js';
import { pool } from '../stats.js';
import { composeBurst } from './burst.js';
import { defaultShape, generateWorkload } from './graph.js';
import { mixRun } from './mix.js';
import { probeAuthors } from './probes.js';
import type { WorkloadRun } from './run.js';

export interface VariantPlan {
  readonly name: string;
  /** Settings on top of the bench's (every one the variants differ in, named by each). */
  readonly env: Readonly<Record<string, string>>;
  readonly warm: boolean;
  readonly burstPosts: number;
  readonly probeAuthors: number;
  /** The mix's requests per second, seconds per round, and rounds. */
  readonly mixRate: number;
  readonly mixSeconds: number;
  readonly mixRounds: number;
  /** A mix probe every this many ms. */
  readonly mixProbeEveryMs: number;
}

/** After the plan (answered `{}` once the graph is seeded): the burst, then the mix's rounds. */
export type VariantRequest = { readonly run: 'burst' } | { readonly run: 'mix'; readonly round: number };

const requests = sessionRequests<VariantPlan | VariantRequest>();
const plan = (await requests.next()).value as VariantPlan;
const started = now();
const say = (text: string) => progress(`  burst [${plan.name}] ${Math.round((now() - started) / 1000)} s: ${text}`);
const keys = await generateLocalKeys();
const stack = await startLocalStack({ port: 0, keys, sqsRetryDelaySeconds: 1, env: { ...benchStackEnv, ...plan.env } });
const ctx = await createContext(stack, keys);
try {
  // Enough planned posts for the burst and every round of the mix (10 % of its requests, with room).
  const mixPosts = Math.ceil(plan.mixRate * plan.mixSeconds * plan.mixRounds * 0.15) + 200;
  const w = generateWorkload({ ...defaultShape, postsPerUser: Math.ceil((plan.burstPosts + mixPosts) / defaultShape.users) });
  const idOf = (u: number) => uid('w', u);
  const run: WorkloadRun = { ctx, w, idOf, followerIds: (u) => w.followersOf[u]!.map(idOf), say };
  say(`seeding ${w.edges.length} follows${plan.warm ? ', every reader stamped' : ''}…`);
  const until = plan.warm ? nowTicks() + 30n * 86_400_000_000_000n : undefined;
  await seedFollows(
    ctx,
    w.edges.map((e) => ({ follower: idOf(e.follower), followee: idOf(e.followee), activeUntil: until })),
  );
  if (until !== undefined) await pool(w.shape.users, 16, (u) => setHeadBound(ctx, idOf(u), until).then(() => undefined));
  answer({});
  let nextPost = plan.burstPosts;
  for await (const request of requests) {
    if ('round' in request) {
      // The 60/30/10 mix alone: the workload scenario's follow burst saturates this machine by itself.
      const mix = await mixRun(run, nextPost, {
        rate: plan.mixRate,
        seconds: plan.mixSeconds,
        round: request.round,
        probeEveryMs: plan.mixProbeEveryMs,
        followBurst: false,
      });
      nextPost += mix.postsUsed;
      answer(mix.summary);
    } else {
      const authors = probeAuthors(
        w.followersOf.map((f) => f.length),
        plan.probeAuthors,
      );
      say(`${plan.burstPosts} posts by ${new Set(w.posts.slice(0, plan.burstPosts).map((p) => p.author)).size} authors, probes alongside…`);
      answer(await composeBurst(run, w.posts.slice(0, plan.burstPosts), authors));
    }
  }
} finally {
  ctx.close();
  await stack.stop();
}
