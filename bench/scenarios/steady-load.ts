/**
 * Steady load: a second process (bench/load-driver.ts, autocannon) drives mixed GET /feed and
 * POST /activities for 60 s as 20 users who follow each other (every post fans out a little):
 * requests/s, p50/p99, every non-2xx, socket error and timeout; then the fan-out must drain with
 * nothing dead-lettered.
 */
import { resolve } from 'node:path';
import { fanoutDlqDepth } from '../../local/queue-depth.js';
import { runDriver } from '../driver.js';
import { followAll, quiesce, uid } from '../fixtures.js';
import type { LoadPlan, LoadResult } from '../load-driver.js';
import { exactly, figureOf } from '../report.js';
import type { Scenario } from './scenario.js';

const fig = figureOf('steady load');
const DURATION_S = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const USERS = 20;
const CONNECTIONS = 8;
const READS_PER_POST = 4;

export const steadyLoad: Scenario = {
  id: 'load',
  title: `${DURATION_S} s of mixed GET /feed + POST /activities (${READS_PER_POST}:1) from a second process`,
  async run(ctx) {
    const users = Array.from({ length: USERS }, (_, i) => uid('load', i));
    const eachFollowedByTheNextFive = users.flatMap((u, i) => [1, 2, 3, 4, 5].map((k) => ({ follower: users[(i + k) % USERS]!, followee: u })));
    await followAll(ctx, eachFollowedByTheNextFive);
    await quiesce(ctx);
    const tokens = await Promise.all(users.map((u) => ctx.token(u)));
    const dlqBefore = await fanoutDlqDepth(ctx);
    const plan: LoadPlan = { url: ctx.stack.apiUrl, durationSeconds: DURATION_S, connections: CONNECTIONS, tokens, readsPerPost: READS_PER_POST };
    const result = await runDriver<LoadResult>(resolve(import.meta.dirname, '..', 'load-driver.ts'), plan);
    await quiesce(ctx);
    const dlq = (await fanoutDlqDepth(ctx)) - dlqBefore;
    const failures = result.non2xx + result.errors + result.timeouts;
    const codes = Object.entries(result.statusCodes).map(([c, v]) => `${c}×${v.count}`);
    return [
      fig(`requests/s (${CONNECTIONS} connections, ${READS_PER_POST} reads : 1 post)`, Math.round(result.requestsPerSecond), 'req/s'),
      fig('latency p50', result.p50, 'ms'),
      fig('latency p99', result.p99, 'ms'),
      fig(`non-2xx + errors + timeouts of ${result.requests} requests`, failures, '', {
        ...exactly(failures, 0),
        note: `status codes ${codes.join(', ')}; non-2xx ${result.non2xx}, socket errors ${result.errors}, timeouts ${result.timeouts}`,
      }),
      fig('fan-out jobs dead-lettered during the load', dlq, 'msgs', exactly(dlq, 0)),
    ];
  },
};
