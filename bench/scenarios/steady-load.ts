/**
 * Scenario 6 — steady load. A second process (bench/load-driver.ts, autocannon) drives a mixed
 * GET /feed / POST /activities load at the local API for 60 s as 20 users who follow each other
 * (so every post fans out a little in the background). Reports requests/s, p50/p99, and every
 * non-2xx, socket error and timeout; after the load, the fan-out must drain with nothing in the
 * dead-letter queue.
 */
import { resolve } from 'node:path';
import { runDriver } from '../driver.js';
import type { LoadPlan, LoadResult } from '../load-driver.js';
import { fanoutDlqDepth } from '../../local/queue-depth.js';
import { follow, quiesce, uid } from '../fixtures.js';
import type { Scenario } from './scenario.js';

const S = 'steady load';
const DURATION_S = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const USERS = 20;
const FOLLOWS_EACH = 5;
const CONNECTIONS = 8;
const READS_PER_POST = 4;

export const steadyLoad: Scenario = {
  id: 'load',
  title: `${DURATION_S} s of mixed GET /feed + POST /activities (${READS_PER_POST}:1) from a second process`,
  async run(ctx) {
    const users = Array.from({ length: USERS }, (_, i) => uid('load', i));
    for (let i = 0; i < USERS; i++)
      await follow(
        ctx,
        Array.from({ length: FOLLOWS_EACH }, (_, k) => users[(i + k + 1) % USERS]!),
        users[i]!,
      );
    await quiesce(ctx);
    const tokens = await Promise.all(users.map((u) => ctx.token(u)));
    const dlqBefore = await fanoutDlqDepth(ctx);
    const plan: LoadPlan = { url: ctx.stack.apiUrl, durationSeconds: DURATION_S, connections: CONNECTIONS, tokens, readsPerPost: READS_PER_POST };
    const result = await runDriver<LoadResult>(resolve(import.meta.dirname, '..', 'load-driver.ts'), plan);
    await quiesce(ctx);
    const dlq = (await fanoutDlqDepth(ctx)) - dlqBefore;
    const failures = result.non2xx + result.errors + result.timeouts;
    const codes = Object.entries(result.statusCodes)
      .map(([c, v]) => `${c}×${v.count}`)
      .join(', ');
    return [
      {
        scenario: S,
        metric: `requests/s (${CONNECTIONS} connections, ${READS_PER_POST} reads : 1 post)`,
        value: Math.round(result.requestsPerSecond),
        unit: 'req/s',
      },
      { scenario: S, metric: 'latency p50', value: result.p50, unit: 'ms' },
      { scenario: S, metric: 'latency p99', value: result.p99, unit: 'ms' },
      {
        scenario: S,
        metric: `non-2xx + errors + timeouts of ${result.requests} requests`,
        value: failures,
        unit: '',
        target: '0',
        met: failures === 0,
        note: `status codes ${codes}; non-2xx ${result.non2xx}, socket errors ${result.errors}, timeouts ${result.timeouts}`,
      },
      { scenario: S, metric: 'fan-out jobs dead-lettered during the load', value: dlq, unit: 'msgs', target: '0', met: dlq === 0 },
    ];
  },
};
