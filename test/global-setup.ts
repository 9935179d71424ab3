/**
 * Starts one local stack (in memory) for the whole test run and hands its coordinates to the test
 * workers through `provide`. Torn down by PID at the end. Refuses to run if AWS credentials of a
 * real account are configured to be used without an endpoint override (guard against real AWS).
 */
import type { TestProject } from 'vitest/node';
import { ensureConsoleBuilt } from '../local/console-build.js';
import { generateLocalKeys } from '../local/jwt.js';
import type { BundleSet } from '../local/bundles.js';
import { inBundleMode, removeTestBundles, startTestStack, synthesizeTestBundles } from './support/bundle-mode.js';
import type { LocalStackInfo } from './support/stack-info.js';

/** Verbs reserved for the rollup tests (see test/support/seed-originals.ts). */
export const TEST_ROLLUPS = [
  'prop_a:sum(score)',
  'prop_a:MIN(score)',
  'prop_a:Max(score)',
  'prop_b:sum(score)',
  'prop_b:max(level)',
  'exo:sum(score)',
  'exo:min(score)',
  'exo:max(score)',
  'bench_play:sum(score)',
  'bench_play:max(score)',
].join(',');

/** Rate limits the shared test stack's tests never meet (the defaults are tested on a stack of their own). */
export const TEST_RATE_LIMITS = 'posts=20000/1m,follows=20000/1m,reactions=20000/1m,reads=100000/1m';

/** The verb the trust tests protect (PROTECTED_VERBS); no other test posts it. */
export const TEST_PROTECTED_VERB = 'trust_protected';

export default async function setup(project: TestProject) {
  // The stack serves the web console the browser tests open (a no-op when its build is current).
  await ensureConsoleBuilt();
  const keys = await generateLocalKeys();
  // The bundles pass (vitest.bundles.config.ts): every function served from its cdk.out bundle.
  const bundles = inBundleMode() ? synthesizeTestBundles() : null;
  const stack = await startTestStack(
    {
      port: 0,
      keys,
      sqsRetryDelaySeconds: 1,
      // Low thresholds so tests can cross them with few writes.
      env: {
        FANOUT_PULL_THRESHOLD: process.env.FANOUT_PULL_THRESHOLD ?? '50',
        // Rollup tests: verbs they own (series isolate by verb and by time region), mixed-case funcs.
        ROLLUPS: process.env.ROLLUPS ?? TEST_ROLLUPS,
        // Trust tests: a verb only admin tokens may post.
        PROTECTED_VERBS: process.env.PROTECTED_VERBS ?? TEST_PROTECTED_VERB,
        // Rollups are written once per tumbling window: a 1-second one locally, so tests wait seconds, not minutes.
        LOCAL_TUMBLING_WINDOW_SECONDS: process.env.LOCAL_TUMBLING_WINDOW_SECONDS ?? '1',
        // Tests make thousands of requests per user (the OpenAPI fuzzer ~3,500): limits they never
        // meet, still on, so every route spends tokens. rate-limits.test.ts proves the defaults bite.
        RATE_LIMITS: process.env.RATE_LIMITS ?? TEST_RATE_LIMITS,
        // A first read's restamp runs at once (tests wait for it); its spread has its own test (reader-activity).
        STAMP_SPREAD: process.env.STAMP_SPREAD ?? 'off',
        FEED_GENERATOR_LOOPBACK: 'on', // the test generator (support/feed-generator.ts) serves plain HTTP on loopback
      },
    },
    bundles,
  );
  const info: LocalStackInfo = {
    apiUrl: stack.apiUrl,
    dynamoEndpoint: stack.dynamoEndpoint,
    sqsEndpoint: stack.sqsEndpoint,
    dynamoPid: stack.dynamoPid,
    tableNames: stack.tableNames,
    queueUrls: stack.queueUrls,
    env: stack.env,
    privateJwk: keys.privateJwk,
    publicJwk: keys.publicJwk,
  };
  project.provide('localStack', info);
  project.provide('bundles', bundles);
  return async () => {
    await stack.stop();
    if (bundles) removeTestBundles(bundles);
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    localStack: LocalStackInfo;
    /** The bundle set of the bundles pass (own stacks serve from it too); null in the sources pass. */
    bundles: BundleSet | null;
  }
}
