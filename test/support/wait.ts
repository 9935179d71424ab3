/**
 * The one way tests wait: poll a condition until it holds, with a limit. Nothing waits on the clock
 * alone — a test waits for what it needs to see (a copy in a feed, an empty queue, a job done).
 */

export interface WaitOptions {
  /** What is awaited, named in the error when it never comes. */
  readonly what?: string;
  /** Give up after this long (default 20 s). */
  readonly timeoutMs?: number;
  /** Between probes (default 100 ms). */
  readonly intervalMs?: number;
}

const isAssertion = (error: unknown): boolean => error instanceof Error && error.name === 'AssertionError';

/**
 * Poll `probe` until it returns a truthy value, and return that value. A probe that throws is
 * probed again (the last error is named if time runs out) — except a failed `expect` inside it,
 * which fails at once: it states what must hold on every probe, not what is awaited.
 *
 * @example
 *   const copy = await eventually(() => readCopy(follower), { what: 'the copy in the follower feed' });
 */
export async function eventually<T>(probe: () => T | Promise<T>, opts: WaitOptions = {}): Promise<NonNullable<T>> {
  const { what = 'condition', timeoutMs = 20_000, intervalMs = 100 } = opts;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      if (isAssertion(error)) throw error;
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
