/** The environment of the bench's local stacks (bench/run.ts; the burst scenario's own stacks add their settings). */
export const benchStackEnv: Readonly<Record<string, string>> = {
  // FEED_MAX_ITEMS, FEED_MAX_SPAN, FEED_TTL: the deployment defaults (or this process's env), so
  // the trim attempts the copy writes start are part of the measured cost. Reads are not bounded
  // by count (only trims are), so the reading scenario's seeded 5,000-item feed is read whole.
  // No author crosses the pull threshold by following: the hybrid reads make theirs pulled directly.
  FANOUT_PULL_THRESHOLD: '100000',
  // Configured rollups on the bench's posts (`attributes.score`), besides the per-verb counts.
  ROLLUPS: 'post:sum(score),post:max(score),bench_play:sum(score),bench_play:max(score),bench_buy:sum(amount)',
  // The live rollup poller writes per 2-second tumbling window, so scenarios that wait for the
  // pipeline to settle need not wait out the deployed window (the rollups scenario drives the
  // handler itself at the deployed window length).
  LOCAL_TUMBLING_WINDOW_SECONDS: '2',
  // The scenarios act as a few users at rates no one person would: per-user limits would measure 429s.
  RATE_LIMITS: 'off',
  // The generator scenario's feed generator serves plain HTTP on loopback.
  FEED_GENERATOR_LOOPBACK: 'on',
};
