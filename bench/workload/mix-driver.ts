/**
 * The workload's open-loop driver, a second process (bench/driver.ts): sends each planned request at
 * its time, answered or not (schedule.ts), and prints one JSON line: per kind the latencies from the
 * scheduled time and the status codes, and how late the driver itself sent.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { readPlan } from '../driver.js';
import { percentile } from '../stats.js';

export interface DriverRequest {
  /** ms after the start. */
  readonly at: number;
  readonly kind: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  /** Index into the plan's tokens. */
  readonly token: number;
  readonly body?: unknown;
}

export interface DriverPlan {
  readonly url: string;
  readonly tokens: readonly string[];
  readonly requests: readonly DriverRequest[];
  /** A request not answered after this long counts as failed (status 0). */
  readonly timeoutMs: number;
}

export interface KindResult {
  /** ms from the scheduled send time to the end of the answer, one per request. */
  readonly latencies: number[];
  readonly statuses: Record<string, number>;
}

export interface DriverResult {
  readonly kinds: Record<string, KindResult>;
  /** Every request as [scheduled ms, latency ms], in schedule order (for latency over time). */
  readonly timeline: [number, number][];
  /** How late the driver sent requests (ms after their scheduled time): p99 and worst. */
  readonly sendLagP99: number;
  readonly sendLagMax: number;
  readonly seconds: number;
  /** CPU the driver itself used, in cores. */
  readonly cpuCores: number;
}

async function send(plan: DriverPlan, r: DriverRequest, scheduledAt: number): Promise<{ status: number; latency: number }> {
  const headers: Record<string, string> = { authorization: `Bearer ${plan.tokens[r.token]}` };
  if (r.body !== undefined) headers['content-type'] = 'application/json';
  let status = 0;
  try {
    const res = await fetch(`${plan.url}${r.path}`, {
      method: r.method,
      headers,
      body: r.body === undefined ? undefined : JSON.stringify(r.body),
      signal: AbortSignal.timeout(plan.timeoutMs),
    });
    await res.arrayBuffer();
    status = res.status;
  } catch {
    status = 0; // refused, reset or timed out
  }
  return { status, latency: performance.now() - scheduledAt };
}

const plan = await readPlan<DriverPlan>();
const kinds: Record<string, KindResult> = {};
const lags: number[] = [];
const timeline: [number, number][] = plan.requests.map((r) => [r.at, Number.NaN]);
const pending: Promise<void>[] = [];
// A short lead so the first requests are not late because the plan was just parsed.
const start = performance.now() + 100;
for (const [i, r] of plan.requests.entries()) {
  const due = start + r.at;
  const wait = due - performance.now();
  if (wait > 0) await sleep(wait);
  lags.push(Math.max(0, performance.now() - due));
  pending.push(
    send(plan, r, due).then(({ status, latency }) => {
      const k = (kinds[r.kind] ??= { latencies: [], statuses: {} });
      k.latencies.push(latency);
      timeline[i]![1] = Math.round(latency);
      k.statuses[status] = (k.statuses[status] ?? 0) + 1;
    }),
  );
}
await Promise.all(pending);
const result: DriverResult = {
  kinds,
  timeline,
  sendLagP99: percentile(lags, 99),
  sendLagMax: Math.max(0, ...lags),
  seconds: (performance.now() - start) / 1000,
  cpuCores: ((cpu) => (cpu.user + cpu.system) / 1e6)(process.cpuUsage()) / ((performance.now() - start) / 1000),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
