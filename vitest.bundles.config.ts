import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BUNDLE_FLOWS } from './test/bundles/flows.js';

/**
 * The bundles pass (`npm run test:bundles`, the second half of `npm test`): the flows of
 * test/bundles/flows.ts against a local stack whose every function is served from its shipped
 * bundle in cdk.out (test/support/bundle-mode.ts), then — a group of its own, after them — the
 * test that fails on a function no flow invoked.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.TICKFEED_BUNDLES = '1';
process.env.TICKFEED_BUNDLE_COUNTS ??= mkdtempSync(join(tmpdir(), 'tickfeed-bundle-counts-'));

const common = {
  setupFiles: ['test/setup-env.ts'],
  pool: 'forks' as const,
  maxWorkers: 2,
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    ...common,
    // One bundled stack for the pass (own stacks of a flow serve from the same bundles).
    globalSetup: ['test/global-setup.ts'],
    projects: [
      { test: { ...common, name: 'bundles', include: [...BUNDLE_FLOWS], sequence: { groupOrder: 0 } } },
      { test: { ...common, name: 'bundles-coverage', include: ['test/bundles/every-function.test.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
});
