/** Small statistics helpers for the benchmarks. */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const median = (values: readonly number[]) => percentile(values, 50);

export const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** p50, p99 and worst of some latencies (ms), rounded. */
export const stats = (ms: readonly number[]) => ({ p50: round(percentile(ms, 50), 0), p99: round(percentile(ms, 99), 0), max: round(Math.max(...ms), 0) });

/** Milliseconds taken by `fn`, with its result. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` in flight. */
export async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) await task(next++);
  });
  await Promise.all(workers);
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
