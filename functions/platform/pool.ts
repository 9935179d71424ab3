/** Bounded concurrency, and sleep (retries wait through platform/retry.ts). */

/** Runs `fn` over `items` with at most `limit` in flight; rejects with the first failure (the rest stop taking work). */
export async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  });
  await Promise.all(lanes);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
