/**
 * The bench's one seeded PRNG (mulberry32) and the draws it needs, so a seed names one graph, one
 * set of posts and one request schedule on every machine (Math.random cannot be seeded).
 */

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** `k` distinct values of `from`, in random order (k ≤ from.length); `from` is not changed. */
  sample<T>(from: readonly T[], k: number): T[];
  /** A copy of `items` in random order. */
  shuffle<T>(items: readonly T[]): T[];
}

/** mulberry32: 32-bit state, full period, good enough for workload generation (not for crypto). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  // A partial Fisher–Yates: the first k slots of a shuffled copy.
  const sample = <T>(from: readonly T[], k: number): T[] => {
    const a = [...from];
    const n = Math.min(k, a.length);
    for (let i = 0; i < n; i++) {
      const j = int(i, a.length - 1);
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a.slice(0, n);
  };
  return { next, int, sample, shuffle: (items) => sample(items, items.length) };
}

/** Draws of a rank in [0, n) from Zipf(1): rank 0 most often, a long tail of rare ones. */
export function zipf(n: number, random: Random): () => number {
  const cdf: number[] = [];
  let total = 0;
  for (let i = 1; i <= n; i++) cdf.push((total += 1 / i));
  return () => {
    const r = random.next() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}
