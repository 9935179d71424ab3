/**
 * The steady-load driver, a second process (bench/driver.ts): autocannon for the plan's duration
 * with GET /feed and POST /activities (a random user's token each); prints one JSON line.
 */
import autocannon from 'autocannon';
import { readPlan } from './driver.js';

export interface LoadPlan {
  url: string;
  durationSeconds: number;
  connections: number;
  /** Bearer tokens of the users the load acts as. */
  tokens: string[];
  /** GET /feed requests per POST /activities. */
  readsPerPost: number;
}

const plan = await readPlan<LoadPlan>();
const pick = () => plan.tokens[Math.floor(Math.random() * plan.tokens.length)]!;
let n = 0;
const read = {
  method: 'GET' as const,
  path: '/feed?limit=20',
  setupRequest: (req: Record<string, unknown>) => ({ ...req, headers: { authorization: `Bearer ${pick()}` } }),
};
const post = {
  method: 'POST' as const,
  path: '/activities',
  setupRequest: (req: Record<string, unknown>) => ({
    ...req,
    headers: { authorization: `Bearer ${pick()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ verb: 'post', object: `note:load-${process.pid}-${n++}`, content: 'steady load '.repeat(8), attributes: { score: n % 100 } }),
  }),
};

const result = await autocannon({
  url: plan.url,
  connections: plan.connections,
  duration: plan.durationSeconds,
  timeout: 10,
  requests: [...Array.from({ length: plan.readsPerPost }, () => read), post],
});
const summary = {
  requests: result.requests.total,
  requestsPerSecond: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  statusCodes: result.statusCodeStats,
};
/** The result line the parent (scenarios/steady-load.ts) reads. */
export type LoadResult = typeof summary;
process.stdout.write(`${JSON.stringify(summary)}\n`);
